// The embed's side of the host API (embedApi.ts): obeys the trusted host's commands and tells
// it when the embed is ready, when the step changes and when a run has finished drawing.
import { useEffect, useRef } from 'react';
import { withValue } from './settings';
import { neighbour, PROTOCOL, readHostMessage, type EmbedEvent } from './embedApi';
import type { Explorer } from './useExplorer';
import type { SetUrl } from './useGuide';
import type { UrlState } from './url';

export function useEmbedHost(url: UrlState, setUrl: SetUrl, x: Explorer, scenario: string): void {
  const host = window.parent !== window ? window.parent : null;
  const target = url.origin ?? window.location.origin;
  const post = (e: EmbedEvent) => host?.postMessage({ type: PROTOCOL, ...e }, target);

  // What the handler reads: the latest render's state, moved on by each command at once, as two
  // commands can arrive before React renders the first one's result.
  // While a step's run is on its way the guide knows no steps; commands use the last that did.
  const known = useRef(x.guide);
  if (x.a || x.guide.steps.length > 0) known.current = x.guide;
  const index = url.step !== null ? url.step - 1 : null;
  const live = useRef({ url, x, index });
  live.current = { url, x, index };
  useEffect(() => {
    if (!url.embed || !host) return;
    const onMessage = (m: MessageEvent) => {
      if (m.source !== host) return;
      const read = readHostMessage(m.origin, m.data, url.origin ?? null, window.location.origin);
      if (read.kind === 'ignore') return;
      if (read.kind === 'untrusted') {
        console.warn(
          `tlbscope embed: ignored a command from ${m.origin}; add origin=${encodeURIComponent(m.origin)} to the embed's URL to accept it`,
        );
        return;
      }
      if (read.kind === 'error') {
        host.postMessage({ type: PROTOCOL, event: 'error', message: read.message }, target);
        return;
      }
      const parsed = read.command;
      const { url: u, x: ex, index } = live.current;
      const guide = known.current;
      const go = (i: number | null) => {
        guide.go(i);
        live.current.index = i;
      };
      const change = (next: UrlState) => {
        setUrl(next);
        live.current.url = next;
      };
      switch (parsed.command) {
        case 'goto':
          if (parsed.step > guide.steps.length)
            host.postMessage(
              {
                type: PROTOCOL,
                event: 'error',
                message: `goto ${parsed.step}: this scenario has ${guide.steps.length} steps`,
              },
              target,
            );
          else go(parsed.step === 0 ? null : parsed.step - 1);
          break;
        case 'next':
        case 'prev': {
          const to = neighbour(index, guide.steps.length, parsed.command === 'next' ? 1 : -1);
          if (to !== undefined) go(to);
          break;
        }
        case 'play':
          ex.setPlaying(true);
          break;
        case 'pause':
          ex.setPlaying(false);
          break;
        case 'set':
          if (parsed.side === 'B')
            change({
              ...u,
              compare: true,
              overridesB: withValue(u.overridesB, parsed.key, parsed.value),
            });
          else change({ ...u, overrides: withValue(u.overrides, parsed.key, parsed.value) });
          break;
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [url.embed, url.origin, host, target, setUrl]);

  // ready once the first run is drawn (commands that name steps need the steps); then step
  // and run as they happen.
  const { guide, a, b } = x;
  const shown = x.fresh && x.idle && a !== null;
  const ready = useRef(false);
  const title = guide.step?.title ?? null;
  const stepInfo = {
    step: guide.index === null ? null : guide.index + 1,
    steps: guide.steps.length,
    title,
  };
  const stepKey = `${stepInfo.step}/${stepInfo.steps}`;
  const lastStep = useRef<string | null>(null);
  const lastRun = useRef<string | null>(null);
  useEffect(() => {
    if (!url.embed || !host || !shown || !a) return;
    if (!ready.current) {
      ready.current = true;
      lastStep.current = stepKey;
      post({ event: 'ready', scenario, ...stepInfo });
    } else if (lastStep.current !== stepKey) {
      lastStep.current = stepKey;
      post({ event: 'step', ...stepInfo });
    }
    const runKey = `${a.trace.version}/${b?.trace.version ?? '-'}`;
    if (lastRun.current !== runKey) {
      lastRun.current = runKey;
      post({
        event: 'run',
        scenario,
        seed: url.seed,
        settings: url.overrides,
        settingsB: url.compare ? url.overridesB : null,
        events: a.trace.n,
        eventsB: b ? b.trace.n : null,
      });
    }
  });
}
