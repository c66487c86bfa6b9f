// Timing figures the timeline exposes for the UI benchmark (bench/ui-bench.mjs) and for
// anyone profiling in DevTools: performance marks plus a small object on `window`.
export interface TimelinePerf {
  draws: number;
  /** Duration of the last draws (ms), newest last; at most 1,000 kept. */
  drawMs: number[];
  /** performance.now() at the end of the last draw. */
  lastDrawEnd: number;
  /** Building the view model (indexes) for the last new trace or spacing (ms). */
  modelMs: number;
  mode: string;
  /** Version of the last trace drawn for the first time. */
  renderedVersion: number;
  /** Rows of the last trace drawn. */
  rows: number;
  /** What the last full draw put on screen (for `bench/ui-bench.mjs --detail`). */
  marks?: { svg: number; canvas: number; arrows: number };
  /** What the simulator worker keeps of the last run (its WASM memory, its column copy). */
  worker?: {
    rows: number;
    wasmBytes: number;
    columnBytes: number;
    indexBytes: number;
    indexMs: number;
  };
}

declare global {
  interface Window {
    __tlbscopePerf?: TimelinePerf;
  }
}

export function perfRecord(): TimelinePerf | null {
  if (typeof window === 'undefined') return null;
  return (window.__tlbscopePerf ??= {
    draws: 0,
    drawMs: [],
    lastDrawEnd: 0,
    modelMs: 0,
    mode: '',
    renderedVersion: 0,
    rows: 0,
  });
}

export function recordDraw(
  ms: number,
  mode: string,
  version: number,
  rows: number,
  marks?: TimelinePerf['marks'],
): void {
  const p = perfRecord();
  if (!p) return;
  if (marks) p.marks = marks;
  p.draws++;
  p.drawMs.push(ms);
  if (p.drawMs.length > 1000) p.drawMs.splice(0, p.drawMs.length - 1000);
  p.lastDrawEnd = performance.now();
  p.mode = mode;
  p.rows = rows;
  if (p.renderedVersion !== version) {
    p.renderedVersion = version;
    performance.mark('tlbscope:rendered', { detail: { version } });
  }
}
