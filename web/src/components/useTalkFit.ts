// Measures talk mode's figure after each layout and moves its fit (talkFit.ts) until the
// timelines end at the screen's bottom. Only the timelines are enlarged: what follows them in
// the figure (the legend) keeps its size and is subtracted from the room.
import { useEffect, useLayoutEffect, useState } from 'react';
import { TRACK } from './share/squeeze';
import { nextTalkFit, talkMaxZoom, type TalkFit } from './talkFit';

/** Kept free under the figure: main's bottom padding, and a few px so nothing touches the edge. */
const BOTTOM = 24;

export function useTalkFit(
  figure: HTMLElement | null,
  on: boolean,
  /** Changes when the figure shows something else (a step, a comparison): lanes start over. */
  key: unknown,
  lanes: number,
): TalkFit & { settled: boolean } {
  const start = (): TalkFit => ({ zoom: talkMaxZoom(window.innerWidth), track: TRACK });
  // `settled`: the last measurement asked for no change (what a test of the fit waits for).
  const [state, setState] = useState(() => ({ key, fit: start(), settled: false }));
  const fit = state.key === key ? state.fit : { zoom: state.fit.zoom, track: TRACK };
  if (state.key !== key) setState({ key, fit, settled: false });
  useEffect(() => {
    const reset = () => setState((s) => ({ key: s.key, fit: start(), settled: false }));
    window.addEventListener('resize', reset);
    return () => window.removeEventListener('resize', reset);
  }, []);
  useLayoutEffect(() => {
    if (!on || !figure) return;
    let frame = 0;
    const measure = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const tls = [...figure.querySelectorAll<HTMLElement>('.timeline')];
        if (!tls.length) return;
        const boxes = tls.map((t) => t.getBoundingClientRect());
        const timelines = boxes.reduce((s, b) => s + b.height, 0);
        const first = boxes[0].top;
        const last = boxes[boxes.length - 1].bottom;
        const after = figure.getBoundingClientRect().bottom - last;
        const gaps = last - first - timelines;
        const room = window.innerHeight - (first + window.scrollY) - after - gaps - BOTTOM;
        setState((s) => {
          const next = nextTalkFit(s.fit, { timelines, room, width: window.innerWidth, lanes });
          if (next !== s.fit) return { key: s.key, fit: next, settled: false };
          return s.settled ? s : { ...s, settled: true };
        });
      });
    };
    const observer = new ResizeObserver(measure);
    observer.observe(figure);
    for (const t of figure.querySelectorAll('.timeline')) observer.observe(t);
    measure();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [on, figure, key, lanes, fit.zoom, fit.track]);
  return { ...fit, settled: state.key === key && state.settled };
}
