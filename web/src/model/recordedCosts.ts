// "Your machine as a model": the model's costs estimated from a recording's flushes, cut into
// parts (flushBreakdown.ts). Each estimate is a median with its spread (p10–p90) and the number
// of samples it rests on; a cost the recording holds no events for is not estimated. The median,
// not the mean: a delivery the recording cannot explain (interrupts off without irq events to
// show it) would pull a mean, and it is the typical cost the model charges per event. Pure.
import type { FlushBreakdown } from './flushBreakdown';
import { nearestRank, sortedSamples } from './nearestRank';
import { tomlString } from './tomlString';

export interface CostEstimate {
  /** A cost parameter's name (`costs.<name>`). */
  name: string;
  /** Whole ns, or null: the recording cannot tell. */
  value: number | null;
  samples: number;
  p10: number | null;
  p90: number | null;
  /** What it was measured from, or why it could not be. */
  basis: string;
}

export interface RecordedCosts {
  estimates: CostEstimate[];
  /** The timestamps' resolution in ns (1000: the recording printed microseconds). */
  resolution: number;
}

export function recordedCosts(
  flushes: readonly FlushBreakdown[],
  opts: { irqsKnown: boolean },
): RecordedCosts {
  const acc = new RecordedCostsAccumulator(opts);
  for (const b of flushes) acc.add(b);
  return acc.result();
}

/**
 * The estimates built one flush at a time, in any order (a scan in a worker emits flushes as
 * they complete): the samples each estimate is a percentile of, and whether every time so far
 * is a multiple of 1 µs (100 ns, 10 ns), which is the timestamps' resolution.
 */
export class RecordedCostsAccumulator {
  private readonly delivery: number[] = [];
  private readonly handler: number[] = [];
  private readonly sendGaps: number[] = [];
  /** flush_tlb_func's durations (on targets and on the initiator) by the flush's page count. */
  private readonly byPages = new Map<number, number[]>();
  /** Of RESOLUTIONS, the ones every time seen so far is a multiple of. */
  private fits = RESOLUTIONS.map(() => true);
  private anyTime = false;

  constructor(private readonly opts: { irqsKnown: boolean }) {}

  add(b: FlushBreakdown): void {
    this.time(b.start);
    this.time(b.latency);
    // Partial flushes only: above the ceiling (33 pages) the kernel flushes everything.
    if (b.pages >= 1 && b.pages <= FLUSH_CEILING) {
      let d = this.byPages.get(b.pages);
      if (!d) this.byPages.set(b.pages, (d = []));
      for (const t of b.targets) if (t.func !== null) d.push(t.func);
      if (b.local !== null) d.push(b.local);
    }
    const sends = b.targets.map((t) => t.send).sort((x, y) => x - y);
    for (let i = 1; i < sends.length; i++) this.sendGaps.push(sends[i] - sends[i - 1]);
    for (const t of b.targets) {
      for (const v of [t.send, t.entry, t.ack, t.func]) if (v !== null) this.time(v);
      // A delivery held by something the trace shows (interrupts off, another handler, idle)
      // is that thing's cost, not the IPI's.
      const plain = t.cause?.kind === 'delivery' || t.cause?.kind === 'unknown';
      if (t.entry !== null && plain) this.delivery.push(t.entry - t.send);
      if (t.entry !== null && t.ack !== null && t.func !== null)
        this.handler.push(t.ack - t.entry - t.func);
    }
  }

  private time(t: number): void {
    this.anyTime = true;
    for (let i = 0; i < RESOLUTIONS.length; i++)
      if (this.fits[i] && Math.abs(t / RESOLUTIONS[i] - Math.round(t / RESOLUTIONS[i])) >= 1e-6)
        this.fits[i] = false;
  }

  result(): RecordedCosts {
    const i = this.fits.indexOf(true);
    const resolution = this.anyTime && i >= 0 ? RESOLUTIONS[i] : 1;
    const e = (name: string, v: number[], basis: string, none: string) =>
      belowResolution(estimate(name, v, basis, none), resolution);
    return {
      resolution,
      estimates: [
        e(
          'ipi_delivery_ns',
          this.delivery,
          this.opts.irqsKnown
            ? 'IPI send to handler entry, where the target ran a task with interrupts on'
            : 'IPI send to handler entry, where nothing the recording shows held it (it has no irq_disable/irq_enable events: some may have met interrupts off; the median keeps them out)',
          'no IPI with a recorded handler',
        ),
        e(
          'ipi_handler_ns',
          this.handler,
          'the handler from entry to its csd unlock, less flush_tlb_func inside it',
          'no handler with its flush_tlb_func and csd unlock recorded (csd_function_entry/exit events)',
        ),
        e(
          'ipi_send_ns',
          this.sendGaps,
          'the gap between two IPI sends of one flush',
          'no flush sent more than one IPI',
        ),
        perPage(this.byPages, resolution),
        unknown('syscall_ns', NO_SYSCALLS),
      ],
    };
  }
}

const NO_SYSCALLS =
  'not estimated: the recording has no raw_syscalls:sys_enter/sys_exit events around its shootdowns (bench/kit/trace.sh records them on x86-64)';

/**
 * `c` with syscall_ns from the recording's syscalls around one shootdown (its summary's
 * syscall_path_ns): the median of their time less the shootdown's. That path holds the page's
 * zap and freeing too, which the model also charges per page (zap_pte_ns): a few ns counted
 * twice, against a syscall path of microseconds.
 */
export function withSyscallPath(
  c: RecordedCosts,
  path: { samples: number; p10: number; p50: number; p90: number } | null,
): RecordedCosts {
  const basis = 'a syscall (madvise, munmap) from entry to exit, less the one shootdown it began';
  const e: CostEstimate = path
    ? belowResolution(
        {
          name: 'syscall_ns',
          value: Math.max(0, Math.round(path.p50)),
          samples: path.samples,
          p10: path.p10,
          p90: path.p90,
          basis,
        },
        c.resolution,
      )
    : unknown('syscall_ns', NO_SYSCALLS);
  return { ...c, estimates: c.estimates.map((x) => (x.name === 'syscall_ns' ? e : x)) };
}

/** tlb_single_page_flush_ceiling's default: a flush of more pages flushes everything. */
const FLUSH_CEILING = 33;
/** Durations a page count needs before its median is one point of the per-page slope. */
const MIN_GROUP = 5;

/**
 * The cost per page of flush_tlb_func (the model's invlpg_ns): the median of the slopes between
 * the median durations of every two page counts recorded (Theil–Sen over the groups), p10–p90
 * of those slopes as its spread. Needs flushes of at least two sizes; with timestamps of
 * resolution r, a slope under r over the page counts' span cannot be told from zero.
 */
function perPage(byPages: ReadonlyMap<number, number[]>, resolution: number): CostEstimate {
  const name = 'invlpg_ns';
  const groups = [...byPages]
    .filter(([, d]) => d.length >= MIN_GROUP)
    .sort(([a], [b]) => a - b)
    .map(([pages, d]) => ({ pages, n: d.length, median: nearestRank(sortedSamples(d), 0.5) }));
  const none = (basis: string) => unknown(name, basis);
  if (groups.length < 2) {
    const sizes = [...byPages.keys()].sort((a, b) => a - b);
    return none(
      sizes.length
        ? `every recorded flush_tlb_func was of ${sizes.join(', ')} page(s)${groups.length ? '' : ' (too few)'}: the cost per page needs at least ${MIN_GROUP} flushes of each of two sizes (bench/kit/trace.sh MADV_PAGES="1 8 32" records them)`
        : 'no flush_tlb_func of a partial flush recorded (csd_function_entry/exit events)',
    );
  }
  const slopes: number[] = [];
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++)
      slopes.push((groups[j].median - groups[i].median) / (groups[j].pages - groups[i].pages));
  const s = sortedSamples(slopes);
  const value = Math.max(0, Math.round(nearestRank(s, 0.5)));
  const span = groups[groups.length - 1].pages - groups[0].pages;
  const basis = `flush_tlb_func's time per page: the slope of its median over flushes of ${groups.map((g) => g.pages).join(', ')} pages`;
  if (value < resolution / span)
    return none(
      `${basis}: ${value} ns, under what timestamps of ${resolution} ns resolve over ${span} pages (${Math.ceil(resolution / span)} ns), so not estimated`,
    );
  return {
    name,
    value,
    samples: groups.reduce((n, g) => n + g.n, 0),
    p10: nearestRank(s, 0.1),
    p90: nearestRank(s, 0.9),
    basis,
  };
}

/** The resolutions tried, coarsest first (up to 1 µs). */
const RESOLUTIONS = [1000, 100, 10];

/** A cost the recording cannot tell, and `basis`: why. */
function unknown(name: string, basis: string): CostEstimate {
  return { name, value: null, samples: 0, p10: null, p90: null, basis };
}

function estimate(name: string, v: number[], basis: string, none: string): CostEstimate {
  if (!v.length) return unknown(name, none);
  const s = sortedSamples(v);
  const at = (q: number) => nearestRank(s, q);
  return {
    name,
    value: Math.max(0, Math.round(at(0.5))),
    samples: s.length,
    p10: at(0.1),
    p90: at(0.9),
    basis,
  };
}

/** A median under the timestamps' resolution is no estimate: it would write 0 into the model. */
function belowResolution(e: CostEstimate, resolution: number): CostEstimate {
  if (e.value === null || resolution <= 1 || e.value >= resolution) return e;
  return {
    ...e,
    value: null,
    basis: `${e.basis}: its median, ${e.value} ns, is under the timestamps' ${resolution} ns resolution, so not estimated`,
  };
}

/**
 * The estimates as a costs file (`run --costs`, `fit --out`'s format): the preset they refine
 * and each estimated cost, every line saying what it rests on.
 */
export function costsToml(c: RecordedCosts, preset: string, from: string): string {
  const lines = [
    `# Costs estimated by \`tlbscope fit-recording\` from ${tomlString(from)}: medians of the recorded parts.`,
    ...(c.resolution >= 1000
      ? ['# Its timestamps are in whole microseconds: each value is good to about ±1 µs.']
      : []),
    '[machine]',
    `preset = "${preset}"`,
    '',
    '[costs]',
  ];
  for (const e of c.estimates) {
    if (e.value === null) lines.push(`# ${e.name}: ${e.basis}`);
    else
      lines.push(
        `# ${e.basis}: ${e.samples} samples, p10 ${Math.round(e.p10 as number)} ns, p90 ${Math.round(e.p90 as number)} ns`,
        `${e.name} = ${e.value}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
