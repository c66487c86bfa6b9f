// What the page says and draws about an interleaving check (sim/check.ts): whether a scenario is
// small enough to check in the page, the verdict in words, the counterexample's numbered steps
// as timeline marks, and stepping through them. Pure: no React, no DOM, no simulator.
import type { CheckReport, CheckStep, Counterexample } from '../sim/check';
import type { Snapshot } from './snapshot';

/**
 * The page checks scenarios of at most this many CPUs. Each CPU adds its own pending events to
 * every state, so the interleavings multiply with it: the race scenarios of 2 to 4 CPUs take 46
 * to 31,632 states, while 8 CPUs (x86-r8-plus-one-rule) pass the CLI's and the page's
 * 1,000,000-state bound before any answer. Past the bound the answer is "bound reached", never "holds".
 */
export const MAX_CHECK_CPUS = 4;

export { CHECK_LIMITS } from '../sim/checkLimits';

/** Why the scenario with these settings is too big to check in the page, or null if it is not. */
export function tooBigToCheck(settings: Readonly<Record<string, string>>): string | null {
  const cpus = Number(settings.cpus);
  if (!Number.isFinite(cpus)) return 'the scenario does not say how many CPUs it has';
  if (cpus > MAX_CHECK_CPUS)
    return `it has ${cpus} CPUs; the page checks scenarios of at most ${MAX_CHECK_CPUS} (every CPU multiplies the interleavings), so use \`npx tlbscope check\` with a larger --max-states`;
  return null;
}

const count = (n: number) => n.toLocaleString('en-US');

/** "N states, depth D, T s", and which CPUs the symmetry reduction took as interchangeable. */
export function checkCounts(
  r: Pick<CheckReport, 'states' | 'depth' | 'seconds' | 'symmetric'>,
): string {
  const sym = (r.symmetric ?? []).map((k) => `CPUs ${k.join(' = ')}`).join(', ');
  const merged = sym ? `, ${sym} interchangeable` : '';
  return `${count(r.states)} states, depth ${r.depth}, ${r.seconds.toFixed(1)} s${merged}`;
}

/** The verdict in one line, as the page prints it. */
export function verdictLine(r: CheckReport): string {
  const counts = checkCounts(r);
  switch (r.verdict) {
    case 'holds':
      return `Holds in all interleavings up to the bound (${counts})`;
    case 'violated': {
      const cx = r.counterexample as Counterexample;
      return `Violated: invariant ${cx.invariant} in ${cx.steps.length} steps (${counts})`;
    }
    case 'bound_reached':
      return `Bound reached (${r.bound === 'steps' ? 'steps along one interleaving' : 'states'}): no violation in the ${counts}, which is not a proof`;
    default:
      return `Still checking (${counts})`;
  }
}

/** A numbered step of the counterexample, as the timeline draws it. */
export interface StepMark {
  n: number;
  cpu: number;
  time: number;
  /** The first trace row it wrote, or null when it wrote none (its mark is at its time). */
  row: number | null;
  /** Its number among the racing steps (those run in the opposite order to a normal run). */
  race: number | null;
  /** The step whose event broke the invariant. */
  violation: boolean;
  /** The step being looked at. */
  current: boolean;
}

export function stepMarks(cx: Counterexample, current: number | null): StepMark[] {
  return cx.steps.map((s) => ({
    n: s.n,
    cpu: s.cpu,
    time: s.time_ns,
    row: s.rows[1] > s.rows[0] ? s.rows[0] : null,
    race: s.race,
    violation: s.n === cx.violation_step,
    current: s.n === current,
  }));
}

/**
 * The event to select when looking at a step: the invariant violation it wrote (whose moment
 * the inspector then shows), else its first event; null when it wrote none.
 */
export function rowOf(step: CheckStep, kind: ArrayLike<number>, violated: number): number | null {
  for (let r = step.rows[0]; r < step.rows[1]; r++) if (kind[r] === violated) return r;
  return step.rows[1] > step.rows[0] ? step.rows[0] : null;
}

/** The trace rows a step wrote. */
export function rowsOf(step: CheckStep): number[] {
  const out: number[] = [];
  for (let r = step.rows[0]; r < step.rows[1]; r++) out.push(r);
  return out;
}

/**
 * The rows to highlight while looking at step `current`: its own, the racing steps' and the
 * violating step's (the ones the narration talks about).
 */
export function highlightOf(cx: Counterexample, current: number | null): number[] {
  const rows = new Set<number>();
  for (const s of cx.steps)
    if (s.n === current || s.race !== null || s.n === cx.violation_step)
      for (const r of rowsOf(s)) rows.add(r);
  return [...rows].sort((a, b) => a - b);
}

/** The step to look at first: the one that made the violation possible, else the violation. */
export function firstStep(cx: Counterexample): number {
  return cx.enabling_step ?? cx.violation_step;
}

/**
 * The step after (dir 1) or before (dir -1) `current`: among the racing steps and the
 * violation when `racing` (what the narration is about), else among all. Null at either end.
 */
export function nextStep(
  cx: Counterexample,
  current: number | null,
  dir: 1 | -1,
  racing: boolean,
): number | null {
  const ns = cx.steps
    .filter((s) => !racing || s.race !== null || s.n === cx.violation_step)
    .map((s) => s.n);
  const at = current ?? (dir > 0 ? 0 : Infinity);
  const next = dir > 0 ? ns.find((n) => n > at) : [...ns].reverse().find((n) => n < at);
  return next ?? null;
}

/** A step's line in the step list: "3. CPU 0, 4,132 ns: T1 steps: TlbMissed". */
export function stepLine(s: CheckStep): string {
  return `CPU ${s.cpu}, ${count(s.time_ns)} ns: ${s.label}`;
}

/** What a racing step did, for its list entry: "went ahead of the IPI to CPU 2, due at 5,000 ns". */
export function raceNote(s: CheckStep): string | null {
  return s.race !== null && s.overtook
    ? `racing step ${s.race}: went ahead of ${s.overtook}`
    : null;
}

/**
 * The stale translations the machine holds at a moment, in words ("CPU 1 still holds 4 stale
 * translations: mm 1 page 0 (v0), …"), one phrase per CPU that has any; empty when none.
 */
export function staleWords(snap: Snapshot): string[] {
  return snap.cpus
    .filter((c) => c.stale_entries > 0)
    .map((c) => {
      const pages = c.entries
        .filter((e) => e.stale)
        .slice(0, 4)
        .map((e) => `mm ${e.mm} page ${e.vpn} (v${e.version})`);
      const more = c.stale_entries > pages.length ? ', …' : '';
      const n = c.stale_entries;
      return `CPU ${c.cpu} still holds ${n} stale translation${n === 1 ? '' : 's'}: ${pages.join(', ')}${more}`;
    });
}
