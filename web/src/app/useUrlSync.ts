// Keeps the address bar on the view. A new place (view, scenario, step, seed, settings,
// comparison) is a new history entry, so back and forward walk through steps and runs; where
// the user looks (window, cursor, selection, spacing) rewrites the current entry once it rests.
// Inside an embed nothing is pushed: the host page's history is not the diagram's.
import { useEffect, useRef } from 'react';
import { onSourcePacked } from './linkSource';
import { HistoryPlaces } from './historyPlaces';
import { writeUrl, type UrlState, type ViewState } from './url';
import { withModel } from './modelVersion';

const REST_MS = 250;

interface Options {
  url: UrlState;
  /** The view part of the link, or null while the runs on screen are not yet the URL's. */
  view: () => ViewState | null;
  /** Changes whenever what `view` returns may have (so the entry is rewritten). */
  viewKey: unknown;
  /** Set by a change that is no new place; read and cleared here. */
  replaceNext: { current: boolean };
  /** Back or forward: the new entry's query string. */
  onPop: (search: string) => void;
}

export function useUrlSync({ url, view, viewKey, replaceNext, onPop }: Options): {
  /** Records that the state `u` came from back or forward, so it gets no new entry. */
  settle: (u: UrlState) => void;
} {
  const places = useRef<HistoryPlaces | null>(null);
  places.current ??= new HistoryPlaces(url);
  const latest = useRef({ url, view });
  latest.current = { url, view };
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const rewrite = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const v = latest.current.view();
    if (v === null) return;
    const q = withModel(writeUrl(latest.current.url, v)) || window.location.pathname;
    if (q !== window.location.search) window.history.replaceState(null, '', q);
  };

  useEffect(() => {
    const replace = replaceNext.current || !!url.embed;
    replaceNext.current = false;
    if (places.current?.push(url, replace)) {
      window.history.pushState(null, '', withModel(writeUrl(url)) || window.location.pathname);
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(rewrite, REST_MS);
  }, [url, viewKey]);

  // An own scenario packed in a worker joins the link once it is ready.
  useEffect(() => onSourcePacked(() => rewrite()), []);

  const popRef = useRef(onPop);
  popRef.current = onPop;
  useEffect(() => {
    const pop = () => {
      clearTimeout(timer.current);
      timer.current = undefined;
      popRef.current(window.location.search);
    };
    window.addEventListener('popstate', pop);
    return () => {
      window.removeEventListener('popstate', pop);
      clearTimeout(timer.current);
    };
  }, []);

  return {
    settle: (u) => places.current?.fromHistory(u),
  };
}
