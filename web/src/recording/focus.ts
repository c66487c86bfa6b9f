// Where to open a recording's timeline so that one whole shootdown fills it.
import { EventKind, type Columns, type Trace } from '../trace/trace';

/**
 * The first acked shootdown sent by the CPU that sends the most IPIs (the benchmark's, not a
 * shell's fork at the start), with a margin: where the step's reader should look.
 */
export function firstShootdown(trace: Trace): [number, number] | null {
  const initiator = busiestSender(trace);
  for (let i = 0; i < trace.n; i++) {
    if (trace.kind[i] !== EventKind.CsdUnlocked || trace.arg[i] !== initiator) continue;
    const handler = trace.parent[i];
    const send = handler >= 0 ? trace.parent[handler] : -1;
    if (send < 0) continue;
    const start = trace.time[send];
    const end = trace.time[i];
    const pad = Math.max(2000, (end - start) / 3);
    return [Math.max(0, start - pad), end + pad];
  }
  return null;
}

/** The CPU that sent the most IPIs (-1 if none): a recording's initiator, in the lane labels. */
export function busiestSender(trace: Pick<Columns, 'kind' | 'cpu'>): number {
  const sends = new Map<number, number>();
  for (let i = 0; i < trace.kind.length; i++) {
    if (trace.kind[i] === EventKind.IpiSent) {
      sends.set(trace.cpu[i], (sends.get(trace.cpu[i]) ?? 0) + 1);
    }
  }
  return [...sends].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? -1;
}
