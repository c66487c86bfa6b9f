// `tlbscope history`: one x86 scenario replayed under every `kernel=` step the simulator knows
// (its vocabulary's `kernels`, oldest first), with what changed at each step and the commit.
import { BudgetStop, runOnce, ScenarioFailure } from './run.mjs';

/**
 * @typedef {object} HistoryStep
 * @property {string} kernel
 * @property {string} change  the commit of this step and what it changed
 * @property {number} opLatencyNs  mean op latency (NaN when the scenario measures no op)
 * @property {number} flushLatencyNs  mean flush_tlb_mm_range() latency
 * @property {number} preemptOffMaxNs  the longest preemption-off time of a flush
 * @property {number} ipis
 * @property {string[]} violated  the invariants the run broke
 */

/**
 * @param {import('../src/sim/run').SimulatorApi & { vocabularyJson(): string }} wasm
 * @param {{ text: string, file: string }} scenario
 * @param {string[]} set  the user's overrides; they win over a kernel's toggles
 * @param {number} seed
 * @returns {HistoryStep[]}
 */
export function history(wasm, { text, file }, set, seed) {
  const kernels = /** @type {{ name: string, change: string, set: string[] }[]} */ (
    JSON.parse(wasm.vocabularyJson()).kernels ?? []
  );
  if (set.some((s) => /^(design\.)?kernel=/.test(s))) {
    throw new ScenarioFailure(`${file}: history sets kernel= itself; drop --set kernel=`);
  }
  const arch = archOf(wasm, text, file, set, seed);
  if (arch !== 'x86') {
    throw new ScenarioFailure(
      `${file}: history replays x86 kernels (kernel=); this scenario runs ${arch}`,
    );
  }
  return kernels.map(({ name, change, set: toggles }) => {
    // The kernel's toggles replace the scenario file's; the user's --set still wins.
    const overrides = [`kernel=${name}`, ...toggles, ...set];
    const { summary } = runOnce(wasm, text, file, overrides, seed);
    const s = /** @type {Record<string, any>} */ (summary);
    const violated = [...new Set(s.violations.map((/** @type {any} */ v) => v.invariant))].sort();
    return {
      kernel: name,
      change,
      opLatencyNs: s.op_latency_ns.count > 0 ? s.op_latency_ns.mean : NaN,
      flushLatencyNs: s.flush_latency_ns.mean,
      preemptOffMaxNs: s.preempt_off_ns.max,
      ipis: s.ipis,
      violated,
    };
  });
}

/**
 * The architecture the scenario runs with the user's overrides (a run stopped at its first
 * event by its budget).
 * @param {import('../src/sim/run').SimulatorApi} wasm
 * @param {string} text
 * @param {string} file
 * @param {string[]} set
 * @param {number} seed
 */
function archOf(wasm, text, file, set, seed) {
  try {
    return runOnce(wasm, text, file, [...set, 'max_events=1'], seed).arch ?? 'x86';
  } catch (e) {
    if (e instanceof BudgetStop) return e.partial.arch ?? 'x86';
    throw e;
  }
}

/**
 * @param {string} id
 * @param {HistoryStep[]} steps
 */
export function formatHistory(id, steps) {
  const ns = (/** @type {number} */ v) =>
    Number.isFinite(v) ? `${(v / 1000).toFixed(3)} us` : '—';
  const head = ['kernel', 'op latency', 'flush latency', 'max preempt-off', 'IPIs', 'safety'];
  const rows = steps.map((s) => [
    s.kernel,
    ns(s.opLatencyNs),
    ns(s.flushLatencyNs),
    ns(s.preemptOffMaxNs),
    String(s.ipis),
    s.violated.length ? `violates ${s.violated.join(', ')}` : 'no violation',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  const changes = steps.map((s) => `  ${s.kernel}: ${s.change}`);
  return [
    `${id} replayed across kernels (predicted by the tlbscope model)`,
    line(head),
    ...rows.map(line),
    '',
    'What each step changed:',
    ...changes,
    '',
  ].join('\n');
}
