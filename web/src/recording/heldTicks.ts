// An IPI that reached a busy CPU late says the CPU took no interrupt while it waited, but not
// why: interrupts off, or (in a virtual machine) the host not running that CPU at all. Without
// irq_disable/irq_enable events the trace cannot bound interrupts-off sections, so a late IPI
// alone stays "unknown". The timer tick is a second witness: the periodic tick keeps its own
// clock, so when the tick that was due during the wait is taken only together with the IPI,
// both waited for the same thing: the CPU had interrupts held off. Only then is the wait
// written down as an interrupts-off span, marked as inferred. Pure: times in, spans out.
import { lowerBound } from '../model/intervals';

/** One IPI's trip: sent at `send` to `cpu`, its handler entered at `entry` (ns). */
export interface Delivery {
  cpu: number;
  send: number;
  entry: number;
  /** The handler entry's input line. */
  line: number;
}

export interface HeldSpan {
  cpu: number;
  /** The IPI's send: interrupts were off from then (at least) ... */
  start: number;
  /** ... to its handler's entry. */
  end: number;
  line: number;
  /** When the held tick was due (the tick before it plus the CPU's tick period). */
  tickDue: number;
  /** When the held tick was finally taken. */
  tickTaken: number;
}

/** Tick gaps needed before the period is trusted. */
const MIN_TICKS = 4;
/** How soon after the handler the held tick must come: pending interrupts are taken together. */
export const TOGETHER_NS = 50_000;
/** The least lateness that counts, whatever the tick period. */
export const MIN_LATE_NS = 50_000;

/**
 * The tick period: the median gap between consecutive ticks of one CPU, over every CPU's, or
 * null with too few to trust. Pooled, because a CPU whose interrupts are off most of the time
 * (the case this looks for) has its own gaps stretched to the length of its stalls; the tick
 * period is one kernel-wide constant (1/HZ). Idle CPUs whose tick stopped stretch it too,
 * which only makes the test stricter.
 */
export function tickPeriod(ticks: ReadonlyMap<number, readonly number[]>): number | null {
  const gaps: number[] = [];
  for (const t of ticks.values()) for (let i = 1; i < t.length; i++) gaps.push(t[i] - t[i - 1]);
  if (gaps.length < MIN_TICKS) return null;
  gaps.sort((a, b) => a - b);
  const p = gaps[gaps.length >> 1];
  return p > 0 ? p : null;
}

/**
 * The deliveries whose target also held a timer tick: no tick between the send and the
 * handler, the tick due in that time (or before it) more than a quarter period late when the
 * handler ran, and taken within `TOGETHER_NS` after it. `ticks` maps a CPU to its
 * local_timer_entry times, ascending. Overlapping spans on one CPU are merged.
 */
export function heldInterrupts(
  ticks: ReadonlyMap<number, readonly number[]>,
  deliveries: readonly Delivery[],
): HeldSpan[] {
  const period = tickPeriod(ticks);
  const out: HeldSpan[] = [];
  if (!period) return out;
  const late = Math.max(period / 4, MIN_LATE_NS);
  const sorted = [...deliveries].sort((a, b) => a.cpu - b.cpu || a.send - b.send);
  for (const d of sorted) {
    const t = ticks.get(d.cpu);
    if (!t) continue;
    if (d.entry - d.send < late) continue;
    const next = lowerBound(t, d.entry);
    if (next <= 0 || next >= t.length) continue;
    const before = t[next - 1];
    const taken = t[next];
    // A tick taken while the IPI waited means interrupts were on then: not this case.
    if (before >= d.send) continue;
    const due = before + period;
    if (d.entry - due < late || taken - d.entry > TOGETHER_NS) continue;
    const prev = out[out.length - 1];
    if (prev && prev.cpu === d.cpu && d.send <= prev.end) {
      prev.end = Math.max(prev.end, d.entry);
      continue;
    }
    out.push({
      cpu: d.cpu,
      start: d.send,
      end: d.entry,
      line: d.line,
      tickDue: due,
      tickTaken: taken,
    });
  }
  return out;
}
