// IPI flows: an arrow from each IPI send to the handler it caused, and from each handler's
// csd unlock (the SYNC ack) back to the waiting sender. Built from the trace's causal
// `parent` links, so every arrow is something the simulator recorded.
import { EventKind, type Trace } from '../sim/trace';

export interface Arrow {
  kind: 'ipi' | 'ack';
  /** Trace row the arrow represents (the handler for 'ipi', the unlock for 'ack'). */
  row: number;
  fromCpu: number;
  fromTime: number;
  toCpu: number;
  toTime: number;
}

export function toArrows(trace: Trace): Arrow[] {
  const arrows: Arrow[] = [];
  for (let i = 0; i < trace.n; i++) {
    const k = trace.kind[i];
    const p = trace.parent[i];
    if (k === EventKind.IpiHandler && p >= 0 && trace.kind[p] === EventKind.IpiSent) {
      arrows.push({
        kind: 'ipi',
        row: i,
        fromCpu: trace.cpu[p],
        fromTime: trace.time[p],
        toCpu: trace.cpu[i],
        toTime: trace.time[i],
      });
    } else if (k === EventKind.CsdUnlocked) {
      // arg = the sender whose csd was unlocked; it observes the store on its next poll.
      arrows.push({
        kind: 'ack',
        row: i,
        fromCpu: trace.cpu[i],
        fromTime: trace.time[i],
        toCpu: trace.arg[i],
        toTime: trace.time[i],
      });
    }
  }
  return arrows;
}

/** The CPU that sent the first IPI, as recorded in the trace (or -1 if none). */
export function initiatorOf(trace: Trace): number {
  for (let i = 0; i < trace.n; i++) if (trace.kind[i] === EventKind.IpiSent) return trace.cpu[i];
  return -1;
}
