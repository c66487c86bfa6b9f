// A flush's critical path as brackets under the lanes: the parts of model/flushBreakdown.ts
// laid end to end from the flush's start (they are contiguous: entry, sends, then delivery and
// handler on the target that acked last, or the initiator's own flush, then the return), each
// on the lane of the CPU that spends it. A part the trace cannot tell stops the brackets there: what follows
// it has no known start. Pure.
import type { FlushBreakdown } from './flushBreakdown';
import { partShort } from './flushAnalysis';
import type { LensInterval } from './lens';

export function flushBrackets(
  b: FlushBreakdown,
  /** Brackets already under the lanes (the lens's): the parts go in the row below them. */
  under: readonly LensInterval[] = [],
): LensInterval[] {
  const below = new Map<number, number>();
  for (const iv of under) below.set(iv.cpu, Math.max(below.get(iv.cpu) ?? 0, iv.level + 1));
  const out: LensInterval[] = [];
  let t = b.start;
  for (const p of b.path) {
    if (p.ns === null) break;
    // Zero-length parts (no other send before the last one's, nothing after the ack) have
    // nothing to bracket.
    // Delivery and handler happen on the target; the sends, though named for the target whose
    // send ends them, are the initiator's work.
    const on = p.name === 'delivery' || p.name === 'handler' ? p.cpu : b.cpu;
    const label =
      p.name === 'sends' && p.cpu !== b.cpu ? `sends, up to CPU ${p.cpu}'s` : partShort(p);
    if (p.ns > 0)
      out.push({
        kind: 'flush_part',
        label,
        cpu: on,
        start: t,
        end: t + p.ns,
        row: b.row,
        level: below.get(p.cpu) ?? 0,
      });
    t += p.ns;
  }
  return out;
}
