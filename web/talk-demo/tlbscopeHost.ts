// The host's side of the tlbscope embed API, small enough to copy into any page: commands
// wait for the embed's "ready" (its first run), and only the embed's own origin is heard.
export interface Embed {
  goto(step: number): void;
  next(): void;
  prev(): void;
  play(): void;
  pause(): void;
  set(key: string, value: string, side?: 'A' | 'B'): void;
  /** Called with every event the embed sends (ready, step, run, error). */
  listen(fn: (event: { event: string } & Record<string, unknown>) => void): void;
}

export function connect(frame: HTMLIFrameElement): Embed {
  const origin = new URL(frame.dataset.src ?? frame.src, window.location.href).origin;
  let ready = false;
  // The last step asked for: sent again whenever the embed (re)loads, as a fast speaker may
  // be ahead of it and reveal.js unloads frames of slides far away.
  let wanted: object | null = null;
  const listeners: ((e: { event: string } & Record<string, unknown>) => void)[] = [];
  const send = (m: object) => frame.contentWindow?.postMessage({ type: 'tlbscope', ...m }, origin);
  const post = (m: object) => {
    if (ready) send(m);
  };
  frame.addEventListener('load', () => (ready = false));
  window.addEventListener('message', (e) => {
    if (e.source !== frame.contentWindow || e.origin !== origin) return;
    if (e.data?.type !== 'tlbscope') return;
    if (e.data.event === 'ready') {
      ready = true;
      if (wanted) send(wanted);
    }
    for (const fn of listeners) fn(e.data);
  });
  return {
    goto: (step) => {
      wanted = { command: 'goto', step };
      post(wanted);
    },
    next: () => post({ command: 'next' }),
    prev: () => post({ command: 'prev' }),
    play: () => post({ command: 'play' }),
    pause: () => post({ command: 'pause' }),
    set: (key, value, side = 'A') => post({ command: 'set', key, value, side }),
    listen: (fn) => listeners.push(fn),
  };
}
