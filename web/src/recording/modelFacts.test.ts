// "Model this recording" over the shipped recordings: the settings proposed from each, and a
// model run with them whose shootdowns meet the recording's flush by flush.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { matchFlushes } from '../model/flushMatch';
import { modelOfRecording, nearestPreset, overridesOf } from '../model/modelOfRecording';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { asRun } from './asRun';
import { modelFacts } from './modelFacts';
import { parseRecording } from './parse';

beforeAll(() => initSimulatorForNode());

function load(path: string, withSource: boolean) {
  const file = path.split('/').pop()!;
  const rec = parseRecording(readFileSync(resolve(path), 'utf8'), file);
  const source = withSource
    ? (JSON.parse(readFileSync(resolve(`${path}.source.json`), 'utf8')) as {
        machine: string;
        command: string;
      })
    : null;
  return asRun({ ...rec, startSeconds: 0, unknown: rec.unknown }, null, source);
}

const QUIET = 'tests/fixtures/recordings/madvise-touch-2cpu-quiet.trace';
const setting = (p: ReturnType<typeof modelOfRecording>, key: string) =>
  p.settings.find((s) => s.key === key);

test('without its .source.json the quiet recording proposes 2 CPUs, 1 busy thread and its shootdowns', () => {
  const run = load(QUIET, false);
  const p = modelOfRecording(modelFacts(run));
  expect(p.scenario).toBe('x86-madvise-touch');
  expect(setting(p, 'cpus')).toMatchObject({
    value: '2',
    reason: "2 CPUs: the recording's cpus=2",
  });
  expect(setting(p, 'busy_threads')?.value).toBe('1');
  expect(setting(p, 'busy_threads')?.reason).toMatch(/^1 busy: CPU 1 took \d+ of its IPIs$/);
  expect(setting(p, 'flushes')?.value).toBe(String(run.summary.shootdowns));
  expect(setting(p, 'machine')).toMatchObject({ value: 'generic-x86' });
  expect(setting(p, 'machine')?.reason).toMatch(/does not name its machine/);
  expect(setting(p, 'pages')?.value).toBe('1');
});

test('with its .source.json the loop count and the machine come from the kit', () => {
  const p = modelOfRecording(modelFacts(load(QUIET, true)));
  expect(setting(p, 'flushes')).toMatchObject({
    value: '400',
    reason: "400 loops: the recorded command's -n 400",
  });
  expect(setting(p, 'machine')?.value).toBe('zen3-epyc-7763-128');
  expect(setting(p, 'op')?.value).toBe('madvise');
  // The preset comes first so the CPU count after it is not undone by the preset's 128.
  expect(overridesOf(p).slice(0, 2)).toEqual(['machine=zen3-epyc-7763-128', 'cpus=2']);
});

test('the proposed run as B meets the recording flush by flush on 2 CPUs', () => {
  const run = load(QUIET, true);
  const p = modelOfRecording(modelFacts(run));
  const b = runScenario(readScenario(p.scenario), { overrides: overridesOf(p) });
  expect(b.trace.cpus).toBe(2);
  const m = matchFlushes(run.trace, b.trace, { byCpuOnly: true });
  expect(m.pairs.filter((x) => x.a && x.b).length).toBeGreaterThan(300);
});

test('every shipped recording gets a runnable proposal', () => {
  for (const path of [
    'content/recordings/madvise-touch-kvm-2cpu.trace',
    'content/recordings/madvise-touch-kvm-2cpu-loaded.trace',
    'tests/fixtures/recordings/madvise-touch-2cpu-busy-loop.trace',
    'tests/fixtures/recordings/tracefs.trace',
  ]) {
    const p = modelOfRecording(modelFacts(load(path, true)));
    const b = runScenario(readScenario(p.scenario), {
      overrides: [...overridesOf(p), 'flushes=20'],
    });
    expect(b.trace.cpus, path).toBe(2);
    for (const s of p.settings) expect(s.reason, `${path} ${s.key}`).not.toBe('');
  }
});

test('the nearest preset follows the recorded machine, else the fewest-CPU generic of its arch', () => {
  expect(nearestPreset('Intel Xeon Platinum 8336C (Ice Lake)').id).toBe('icelake-8336c-128');
  expect(nearestPreset('Ampere Altra, aarch64').id).toBe('altra-n1-80');
  expect(nearestPreset('Raspberry Pi 4, arm64 Cortex-A72').id).toBe('generic-arm64');
  expect(nearestPreset('a RISC-V board').id).toBe('generic-x86');
  expect(nearestPreset(null).id).toBe('generic-x86');
});

test('a recording whose rows stay in its worker is modelled from its summary alone', () => {
  const run = load(QUIET, false);
  const remote = { ...run, trace: { ...run.trace, remote: { rows: run.trace.n, end: 1 } } };
  const p = modelOfRecording(modelFacts(remote));
  expect(setting(p, 'cpus')?.value).toBe('2');
  // One flush request per shootdown reached CPU 1: one busy thread, as from the rows.
  expect(setting(p, 'busy_threads')?.value).toBe('1');
  expect(setting(p, 'flushes')?.value).toBe(String(run.summary.shootdowns));
  // Pages are read off the rows: not proposed without them.
  expect(setting(p, 'pages')).toBeUndefined();
});
