import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CALIBRATION_FILE, calibrate } from './calibrate.mjs';
import { leaveOneOut, leaveOneOutDataset } from './leaveOneOut.mjs';
import { selectRows } from './fit.mjs';
import { runOnce } from './run.mjs';
import { readScenarioArg } from './wasm.mjs';
import { loadWasm } from './wasm.mjs';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });
const full = JSON.parse(readFileSync(CALIBRATION_FILE, 'utf8'));
// One machine's rows keep these tests to a few dozen runs.
const icelake = { rows: full.rows.filter((r) => r.preset === 'icelake-8336c-128'), checks: [] };
const byId = (report) => Object.fromEntries(report.rows.map((r) => [r.id, r]));
let wasm;

beforeAll(async () => {
  wasm = await loadWasm();
});

describe('calibrate --leave-one-out', () => {
  it('never lets a row into its own fit: changing its measurement changes only the other fits', () => {
    const base = byId(leaveOneOut(wasm, { table: icelake }));
    const real = base['madvise-stack'].measured;
    const moved = byId(
      leaveOneOut(wasm, { table: icelake, measured: { 'madvise-stack': 10 * real } }),
    );
    // The left-out row's parameters and prediction come from the other rows alone.
    expect(moved['madvise-stack'].params).toEqual(base['madvise-stack'].params);
    expect(moved['madvise-stack'].predicted).toBe(base['madvise-stack'].predicted);
    expect(moved['madvise-stack'].trained_on).toEqual([
      'madvise-percpu',
      'madvise-stack-unaligned',
    ]);
    // ...while the rows it trains are pulled towards the absurd value.
    expect(moved['madvise-percpu'].predicted).toBeGreaterThan(
      1.05 * base['madvise-percpu'].predicted,
    );
    expect(moved['madvise-stack'].error_pct).toBeCloseTo(
      (base['madvise-stack'].predicted / (10 * real) - 1) * 100,
      9,
    );
  });

  it('predicts a dataset the model itself generated exactly, from a start away from the truth', () => {
    // "Measurements" made by the model with page_fault_ns = 800 (the preset says 660).
    const truth = byId(calibrate(wasm, { table: icelake, extra: ['costs.page_fault_ns=800'] }));
    const measured = Object.fromEntries(Object.values(truth).map((r) => [r.id, r.predicted]));
    const loo = leaveOneOut(wasm, { table: icelake, measured, params: ['page_fault_ns'] });
    for (const r of loo.rows) {
      expect(r.status).toBe('PREDICTED');
      expect(r.params).toEqual([{ name: 'page_fault_ns', start: 660, value: 800 }]);
      expect(Math.abs(r.error_pct)).toBeLessThan(1e-9);
      // In-sample (the preset as shipped) is off: the fit, not the start, made it exact.
      expect(Math.abs(r.in_sample_error_pct)).toBeGreaterThan(1);
    }
    expect(loo.summary.all.within_tolerance).toBe(3);
  });

  it('says why a row is not predicted: a machine with one row, or a ratio-only count', () => {
    const rows = byId(
      leaveOneOut(wasm, {
        table: {
          rows: full.rows.filter(
            (r) =>
              (r.preset !== 'icelake-8336c-128' && r.preset !== 'skylake-laptop-kvm') ||
              r.tolerance === 'ratio-only',
          ),
          checks: [],
        },
      }),
    );
    expect(rows['mprotect-speedup'].status).toBe('SKIP');
    expect(rows['mprotect-speedup'].why).toMatch(/no other row of ampere-32/);
    expect(rows['misses512-on'].why).toMatch(/ratios/);
  });

  it('is offered as text and JSON from the CLI, not as CSV', () => {
    const bad = cli('calibrate', '--leave-one-out', '--format', 'csv');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--leave-one-out: --format csv is not offered/);
    expect(cli('run', 'x86-lazy-tlb', '--leave-one-out').stderr).toMatch(/--leave-one-out/);
  });

  it('fit --leave-one-out predicts a dataset the model generated, per machine, without the row', () => {
    const { text, file } = readScenarioArg('x86-wis-tlb-flush2');
    const variants = [
      'threads=1;processes=off',
      'threads=2;processes=off',
      'threads=2;processes=on',
    ];
    // Rows "measured" by the model itself with page_fault_ns = 900 (generic-x86 says 600).
    const rows = variants.map((variant, i) => {
      const set = ['machine=generic-x86', ...variant.split(';'), 'costs.page_fault_ns=900'];
      const ns = runOnce(wasm, text, file, set, 1).summary.op_latency_ns.mean;
      return {
        arch: 'x86',
        machine: 'synthetic-vm',
        cpus: 2,
        benchmark: 'wis-tlb-flush2',
        variant,
        metric: 'op_latency',
        value: ns / 1000,
        unit: 'us',
        stddev: null,
        runs: 1,
        source: 'test',
        line: i + 2,
      };
    });
    // A second machine's row must never train the first machine's fits.
    rows.push({ ...rows[0], machine: 'other-vm', value: 1000, line: 5 });
    const { selected } = selectRows(rows);
    const loo = leaveOneOutDataset(wasm, selected, { params: ['page_fault_ns'] });
    const synth = loo.rows.filter(
      (r) => r.id.startsWith('line 2') || r.id.startsWith('line 3') || r.id.startsWith('line 4'),
    );
    expect(synth).toHaveLength(3);
    for (const r of synth) {
      expect(r.params).toEqual([{ name: 'page_fault_ns', start: 600, value: 900 }]);
      expect(r.trained_on).not.toContain('line 5');
      expect(Math.abs(r.error_pct)).toBeLessThan(1e-9);
    }
    const other = loo.rows.find((r) => r.id.startsWith('line 5'));
    expect([other.status, other.why]).toEqual(['SKIP', 'no other row of other-vm to fit on']);
    expect(loo.summary.all.within_tolerance).toBeNull();
  });
});
