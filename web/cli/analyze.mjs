// `tlbscope analyze <recording|scenario>`: the auto-analysis of a trace's shootdowns
// (web/src/model/flushAnalysis.ts) as text modelled on `rtla timerlat -a`'s (a block per
// slowest flush: its parts with durations and shares, the dominant one and its cause), or JSON.
import { existsSync } from 'node:fs';
import { traceOf } from '../src/sim/run';
import { readRecording, warnIssues } from './recording.mjs';
import { runOnce } from './run.mjs';
import { readScenarioArg } from './wasm.mjs';
import { UsageError } from './args.mjs';
import { webModules } from './webModules.mjs';
import { out } from './terminal.mjs';

/** @import { SimulatorApi } from '../src/sim/run' */
/** @import { FlushAnalysis } from '../src/model/flushAnalysis' */
/** @import { Trace } from '../src/trace/trace' */

/** A scenario (an id, or a .toml file) rather than a recording. @param {string} target */
export function isScenario(target) {
  return target.endsWith('.toml') || !existsSync(target);
}

/**
 * @param {SimulatorApi} wasm
 * @param {string} target
 * @param {{ set: string[], seed: number, top?: number, format: string }} args
 */
export async function analyze(wasm, target, args) {
  const m = await webModules();
  /** @type {Trace} */
  let trace;
  /** @type {string} */
  let title;
  /** @type {Int32Array | null} */
  let lines = null;
  let irqsKnown = true;
  /** @type {Record<number, string>} */
  let tasks = {};
  if (isScenario(target)) {
    const scenario = readScenarioArg(target);
    const run = runOnce(wasm, scenario.text, scenario.file, args.set, args.seed, traceOf);
    trace = /** @type {Trace} */ (run.trace);
    title = `${scenario.id}: predicted by the tlbscope model (${[`seed ${args.seed}`, ...args.set].join(', ')})`;
  } else {
    if (args.set.length)
      throw new UsageError('--set and --costs change a scenario’s run, not a recording');
    const { rec } = await readRecording(target);
    warnIssues(rec);
    trace = m.toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
    lines = rec.columns.line;
    irqsKnown = rec.counts.irqsBounded;
    tasks = rec.tasks;
    title = `${rec.name}: measured, ${rec.summary.format} (times from its first event)`;
  }
  const analysis = m.analyzeFlushes(trace, args.top ?? 5, { irqsKnown, tasks });
  if (args.format === 'json') out(`${JSON.stringify({ title, ...analysis }, null, 2)}\n`);
  else out(formatAnalysis(m, title, analysis, lines));
  return 0;
}

/**
 * @param {import('./webModules.mjs').WebModules} m
 * @param {string} title
 * @param {FlushAnalysis} a
 * @param {Int32Array | null} lines  a recording's source line per row
 */
export function formatAnalysis(m, title, a, lines) {
  const ns = m.durationWords;
  /** @param {import('../src/model/flushAnalysis').Percentiles | null} p */
  const pct = (p) =>
    p
      ? `p50 ${ns(p.p50)}, p90 ${ns(p.p90)}, p99 ${ns(p.p99)}, max ${ns(p.max)} (${p.samples} sample${p.samples === 1 ? '' : 's'})`
      : 'unknown';
  const o = [title, ''];
  if (a.flushes === 0) {
    o.push('No IPI shootdown in this trace (no flush_tlb_mm_range that sent IPIs or flushed).');
    return `${o.join('\n')}\n`;
  }
  o.push(
    `${a.flushes} flush${a.flushes === 1 ? '' : 'es'}, ${a.withIpis === a.flushes ? 'all' : `${a.withIpis} of them`} with IPIs${a.withIpis < a.flushes ? " (the others flushed only the initiator's TLB)" : ''}; latency ${pct(a.latency)}`,
  );
  if (a.unknown)
    o.push(
      `${a.unknown} of them with a part the trace cannot tell (an ack or a handler not recorded): shown as unknown.`,
    );
  o.push('', `## The slowest ${a.slowest.length} of ${a.flushes}`);
  for (const b of a.slowest) {
    const where = lines ? `, line ${lines[b.row]}` : '';
    const pages = b.pages < 0 ? 'a full flush' : `${b.pages} page${b.pages === 1 ? '' : 's'}`;
    o.push(
      '',
      `Flush on CPU ${b.cpu} at ${ns(b.start)}${where}: ${ns(b.latency)}, ${pages}, ${b.targets.length} target${b.targets.length === 1 ? '' : 's'}`,
    );
    for (const p of b.path) {
      const share =
        p.ns === null || b.latency <= 0 ? '' : `${((p.ns / b.latency) * 100).toFixed(1)} %`;
      o.push(
        `  ${m.partLabel(p, b).padEnd(38)} ${(p.ns === null ? 'unknown' : ns(p.ns)).padStart(11)}  ${share.padStart(7)}`,
      );
    }
    if (b.local !== null && !b.path.some((p) => p.name === 'local'))
      o.push(
        `  ${`local flush on CPU ${b.cpu} (beside the path)`.padEnd(38)} ${ns(b.local).padStart(11)}`,
      );
    o.push(`  dominant: ${b.why}`);
    for (const t of b.targets) {
      const parts = [
        `sent ${ns(t.send - b.start)} in`,
        t.entry === null ? 'handler not recorded' : `delivered in ${ns(t.entry - t.send)}`,
        t.ack === null ? 'ack not recorded' : `acked ${ns(t.ack - b.start)} in`,
      ];
      o.push(
        `    CPU ${String(t.cpu).padEnd(4)} ${parts.join(', ')}; ${m.causeWords(t.cause, t.cpu)}`,
      );
    }
  }
  o.push('', '## Each part over all flushes where it is on the path');
  for (const [name, p] of Object.entries(a.parts)) {
    if (p)
      o.push(
        `  ${m.PART_WORDS[/** @type {keyof typeof m.PART_WORDS} */ (name)].padEnd(50)} ${pct(p)}`,
      );
  }
  if (a.lastToAck.length) {
    o.push('', '## Last to ack, per CPU (what delayed the IPI to it)');
    for (const c of a.lastToAck) {
      const why = Object.entries(c.by)
        .filter(([, k]) => k > 0)
        .map(([k, n]) => `${CAUSE_NAMES[/** @type {keyof typeof CAUSE_NAMES} */ (k)]} ${n}`)
        .join(', ');
      o.push(`  CPU ${String(c.cpu).padEnd(4)} ${c.last} of ${a.flushes}${why ? ` (${why})` : ''}`);
    }
  }
  return `${o.join('\n')}\n`;
}

const CAUSE_NAMES = {
  'irqs-off': 'interrupts off',
  handler: 'in another handler',
  idle: 'idle',
  delivery: 'delivery itself',
  unknown: 'unknown',
};
