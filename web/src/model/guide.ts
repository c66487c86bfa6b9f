// What a guided step asks of the explorer: which rows to emphasise. Pure.
import type { Step } from '../sim/scenario';
import { EventKind, type Trace } from '../trace/trace';

/** Highlight outlines beyond this many are not drawn by the timeline. */
const MAX_ROWS = 400;

/**
 * Rows of the step's highlighted kinds inside its window (and on its CPUs), taken round-robin
 * across kinds so every kind is represented even when one of them is very frequent.
 */
export function highlightRows(trace: Trace, step: Step, window: [number, number]): number[] {
  const kinds = step.highlight
    .map((n) => EventKind[n as keyof typeof EventKind])
    .filter((k) => k !== undefined);
  if (kinds.length === 0) return [];
  const perKind: number[][] = kinds.map(() => []);
  for (let i = 0; i < trace.n; i++) {
    const start = trace.time[i];
    if (start > window[1]) break;
    if (start + trace.dur[i] < window[0]) continue;
    if (step.cpus.length && !step.cpus.includes(trace.cpu[i])) continue;
    const k = kinds.indexOf(trace.kind[i]);
    if (k >= 0) perKind[k].push(i);
  }
  const rows: number[] = [];
  for (let j = 0; rows.length < MAX_ROWS; j++) {
    let any = false;
    for (const list of perKind) {
      if (j < list.length) {
        rows.push(list[j]);
        any = true;
      }
    }
    if (!any) break;
  }
  return rows.slice(0, MAX_ROWS);
}
