// The claim grammar that ties a number in a scenario's prose to what it measures, so that a
// test can hold every text in content/ to the run it describes. A scenario (top level) or a
// step lists `claims = ["<as written> = <measure>", …]`:
//
//   "26 µs = wakeup_latency_ns.max"        a summary field (dotted path) of the step's run
//   "3 IPIs = ipis"                        … a count compares exactly
//   "600 = B.broadcasts"                   B. reads the step's `compare` run
//   "6.6 µs = time(AsidRollover)"          start of the first AsidRollover
//   "11.7 µs = time(AsidRollover, n=2)"    … the second; also cpu=N, arg=K, after=<ns>,
//                                          before=<ns> (rows starting in [after, before))
//   "2 µs = dur(IpiWait, cpu=0)"           a span's duration; end(...) its end
//   "7 = count(LocalTlbi, cpu=3)"          how many rows of a kind (cpu=, arg=, mm= filters)
//   "0 misses = sum(TlbMissed, after=117000)"  the rows' `arg` added up (0 when none match)
//   "64 misses = arg(TlbMissed, n=3)"      a row's `arg` (what it counts depends on the kind)
//   "39 pages = count(InvariantViolated, cpu=7, after=76000) / 2"   a measure over a number
//   "4-CPU = cpus"                         the run's CPU count
//   "30 µs = input"                        a number the file itself sets (a task's spin, …)
//   "16.7 ms = source"                     quoted from content/sources/ or content/datasets/
//   "100 ns = cited"                       quoted from a reference the text names (a kernel
//                                          comment, a commit); the test only checks that the
//                                          text names one
//
// A number holds if the measure rounds to it at the precision it is written with ("6.6 µs"
// means 6.55–6.65 µs). Pure functions: the test supplies the runs and the files.
import type { Summary, Trace } from '../trace/trace';
import { EventKind, kindName } from '../trace/trace';

export interface Claim {
  said: string;
  measure: string;
}

/** A number as written: its value (ns for times) and how far off the measure may be. */
export interface Quantity {
  value: number;
  tolerance: number;
  time: boolean;
}

export interface ClaimRun {
  summary: Summary;
  trace: Trace;
}

const NUM = String.raw`\d(?:[\d,]*\d)?(?:\.\d+)?`;
const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9 };

/**
 * The numbers in prose that must be backed by a claim: times with a unit, counts of the things
 * a run counts, and CPU counts. Ordinary small numbers ("step 3", "40 pages") are not claims.
 */
const CLAIMED = new RegExp(
  [
    String.raw`${NUM}\s?(?:ns|µs|us|ms)\b`,
    String.raw`${NUM}\s+(?:IPIs?|TLBI broadcasts?|broadcasts?|rollovers?|misses|violations?|page faults?|acks?|shootdowns|stale translations|CPUs)\b`,
    String.raw`\d+-CPU\b`,
  ].join('|'),
  'g',
);

/** Every number in `text` that needs a claim, as written (line breaks read as spaces). */
export function claimedNumbers(text: string): string[] {
  return [...text.replace(/\s+/g, ' ').matchAll(CLAIMED)].map((m) => m[0]);
}

export function parseClaim(s: string): Claim | string {
  const i = s.indexOf(' = ');
  if (i <= 0) return `"${s}": expected "<as written> = <measure>"`;
  return { said: s.slice(0, i).trim(), measure: s.slice(i + 3).trim() };
}

export function quantityOf(said: string): Quantity | null {
  const m = new RegExp(String.raw`(${NUM})\s?(ns|µs|us|ms)?`).exec(said);
  if (!m) return null;
  const digits = m[1].replace(/,/g, '');
  const decimals = digits.includes('.') ? digits.split('.')[1].length : 0;
  const scale = m[2] ? UNIT_NS[m[2]] : 1;
  return {
    value: Number(digits) * scale,
    tolerance: (0.5 * scale) / 10 ** decimals,
    time: m[2] !== undefined,
  };
}

interface Filter {
  kind: number;
  cpu?: number;
  arg?: number;
  mm?: number;
  after: number;
  before: number;
  n: number;
}

function filterOf(args: string): Filter | string {
  const [name, ...rest] = args.split(',').map((a) => a.trim());
  const kind = (EventKind as unknown as Record<string, number>)[name];
  if (typeof kind !== 'number') return `unknown event kind "${name}"`;
  const f: Filter = { kind, after: 0, before: Infinity, n: 1 };
  for (const r of rest) {
    const [k, v] = r.split('=').map((x) => x.trim());
    const x = Number(v);
    if (!Number.isFinite(x)) return `"${r}": expected key=number`;
    if (k === 'cpu') f.cpu = x;
    else if (k === 'arg') f.arg = x;
    else if (k === 'mm') f.mm = x;
    else if (k === 'after') f.after = x;
    else if (k === 'before') f.before = x;
    else if (k === 'n') f.n = x;
    else return `"${r}": unknown filter (cpu, arg, mm, after, before, n)`;
  }
  return f;
}

function rowsOf(t: Trace, f: Filter): number[] {
  const rows: number[] = [];
  for (let i = 0; i < t.n; i++) {
    if (t.kind[i] !== f.kind || t.time[i] < f.after || t.time[i] >= f.before) continue;
    if (f.cpu !== undefined && t.cpu[i] !== f.cpu) continue;
    if (f.arg !== undefined && t.arg[i] !== f.arg) continue;
    if (f.mm !== undefined && t.mm[i] !== f.mm) continue;
    rows.push(i);
  }
  return rows;
}

/** The value `measure` names in the runs, or a message saying why it has none. */
export function measureOf(measure: string, runs: { A: ClaimRun; B?: ClaimRun }): number | string {
  const ratio = /^(.*\S)\s+\/\s+(\S.*)$/.exec(measure);
  if (ratio) {
    const a = measureOf(ratio[1], runs);
    const b = Number.isFinite(Number(ratio[2])) ? Number(ratio[2]) : measureOf(ratio[2], runs);
    if (typeof a === 'string') return a;
    if (typeof b === 'string') return b;
    return b === 0 ? `"${measure}": division by zero` : a / b;
  }
  let expr = measure;
  let run = runs.A;
  if (expr.startsWith('B.')) {
    if (!runs.B) return `"${measure}": this text has no B run (no compare)`;
    run = runs.B;
    expr = expr.slice(2);
  }
  if (expr === 'cpus') return run.trace.cpus;
  const call = /^(count|sum|time|dur|end|arg)\((.*)\)$/.exec(expr);
  if (call) {
    const f = filterOf(call[2]);
    if (typeof f === 'string') return `"${measure}": ${f}`;
    const rows = rowsOf(run.trace, f);
    if (call[1] === 'count') return rows.length;
    if (call[1] === 'sum') return rows.reduce((a, r) => a + run.trace.arg[r], 0);
    const r = rows[f.n - 1];
    if (r === undefined)
      return `"${measure}": the run has ${rows.length} ${kindName(f.kind)} rows matching`;
    const t = run.trace;
    if (call[1] === 'arg') return t.arg[r];
    return call[1] === 'time' ? t.time[r] : call[1] === 'dur' ? t.dur[r] : t.time[r] + t.dur[r];
  }
  let v: unknown = run.summary;
  for (const part of expr.split('.')) {
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  }
  if (typeof v !== 'number') return `"${measure}": not a number in the summary`;
  if (/_ns$/.test(expr.split('.')[0]) && expr.includes('.')) {
    const stats = (run.summary as Record<string, unknown>)[expr.split('.')[0]] as {
      count?: number;
    };
    if (stats.count === 0) return `"${measure}": no samples in this run`;
  }
  return v;
}

/** Whether `got` is what `q` says, at the precision it is written with. */
export function holds(q: Quantity, got: number): boolean {
  return Math.abs(got - q.value) <= q.tolerance + 1e-9;
}

/** Spellings under which a number the file sets may appear in the file (`30us`, `30000`). */
export function inputSpellings(said: string): string[] {
  const q = quantityOf(said);
  if (!q) return [];
  const m = new RegExp(String.raw`(${NUM})\s?(ns|µs|us|ms)?`).exec(said)!;
  const n = m[1].replace(/,/g, '');
  if (!q.time) return [n];
  return [String(q.value), `${n}${m[2]}`, `${n}us`, `${n}ms`, `${n}ns`].filter(
    (s, i, a) => a.indexOf(s) === i,
  );
}

/** Whether a number quoted from a source appears in one of the sources' texts. */
export function inSources(said: string, sources: readonly string[]): boolean {
  const m = new RegExp(`(${NUM})`).exec(said);
  if (!m) return false;
  const plain = m[1].replace(/,/g, '');
  // As a whole number: "16" is not found inside "2016" or "16.7".
  const whole = (n: string) =>
    new RegExp(String.raw`(^|[^\d.])${n.replace(/\./g, '\\.')}(?![\d]|[.,]\d)`);
  return sources.some(
    (s) => whole(m[1]).test(s) || whole(plain).test(s.replace(/,(?=\d{3})/g, '')),
  );
}
