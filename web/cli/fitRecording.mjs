// `tlbscope fit-recording <recording> [--out preset.toml]`: the model's costs estimated from a
// recording's flushes (web/src/model/recordedCosts.ts), each with its spread and sample count,
// as a costs file that `run --costs` and the explorer's settings take.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { readRecording, warnIssues } from './recording.mjs';
import { err, out, quote } from './terminal.mjs';

/**
 * @param {string} path
 * @param {{ out?: string, format: string }} args
 */
export async function fitRecording(path, args) {
  const { m, rec } = await readRecording(path);
  warnIssues(rec);
  const trace = m.toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  const irqsKnown = rec.counts.irqsBounded;
  const costs = m.withSyscallPath(
    m.recordedCosts(m.breakdownFlushes(trace, { irqsKnown }), { irqsKnown }),
    rec.summary.syscall_path_ns,
  );
  const preset = m.nearestPreset(machineOf(path));
  const toml = m.costsToml(costs, preset.id, basename(path));
  if (args.out) {
    writeFileSync(args.out, toml);
    err(`fit-recording: wrote ${quote(args.out)}\n`);
  }
  if (args.format === 'json') {
    out(`${JSON.stringify({ preset, ...costs }, null, 2)}\n`);
    return 0;
  }
  const o = [`${rec.name}: costs estimated from its recorded flushes`, ''];
  o.push(`preset refined: ${preset.id} (${preset.reason})`);
  if (costs.resolution >= 1000)
    o.push('timestamps in whole microseconds: each estimate is good to about ±1 µs');
  o.push('');
  for (const e of costs.estimates) {
    o.push(
      e.value === null
        ? `  ${e.name.padEnd(18)} unknown: ${e.basis}`
        : `  ${e.name.padEnd(18)} ${String(e.value).padStart(8)} ns  (p10 ${Math.round(e.p10 ?? 0)}, p90 ${Math.round(e.p90 ?? 0)}, ${e.samples} samples): ${e.basis}`,
    );
  }
  // The same settings as explorer link parameters: every toggle then runs "on this machine".
  const sets = [`machine=${preset.id}`]
    .concat(
      costs.estimates.flatMap((e) => (e.value === null ? [] : [`costs.${e.name}=${e.value}`])),
    )
    .map((s) => `set=${encodeURIComponent(s)}`);
  o.push('', `In the explorer, add to a scenario's link: &${sets.join('&')}`);
  out(`${o.join('\n')}\n`);
  if (!args.out) out(`\n${toml}`);
  return 0;
}

/** The machine its `.source.json` names (bench/kit writes one beside each recording), if any. */
function machineOf(/** @type {string} */ path) {
  const src = `${path}.source.json`;
  if (!existsSync(src)) return null;
  try {
    const j = JSON.parse(readFileSync(src, 'utf8'));
    return typeof j.machine === 'string' ? j.machine : null;
  } catch {
    return null;
  }
}
