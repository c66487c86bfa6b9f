import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.mjs';
import { summaryBand } from './band.mjs';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });

describe('--band', () => {
  it('gives every figure of a run low, central and high, with the band’s width', () => {
    const r = cli('run', 'x86-munmap-shootdown', '--band', '--set', 'costs.ipi_delivery_ns=800');
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    const f = s.band['flush_latency_ns.mean'];
    expect(f.central).toBe(s.flush_latency_ns.mean);
    expect(f.low).toBeLessThan(f.central);
    expect(f.high).toBeGreaterThan(f.central);
    expect(f.width).toBeCloseTo(f.high / f.low, 2);
    // A statistic with no samples has no band.
    expect(s.band['wakeup_latency_ns.mean']).toBeUndefined();
  });

  it('is printed per run by a sweep, with its progress, as JSON unless another format was asked for', () => {
    const r = cli('sweep', 'x86-munmap-shootdown', '--vary', 'cpus=4,8', '--band', '--progress');
    expect(r.status, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout);
    expect(runs.map((x) => x.overrides)).toEqual([['cpus=4'], ['cpus=8']]);
    for (const x of runs) expect(x.band['op_latency_ns.mean'].low).toBeGreaterThan(0);
    expect(r.stderr).toContain('band: 2/2 runs at both ends of the cost ranges');
    expect(parseArgs(['sweep', 'x', '--vary', 'cpus=2,4', '--band']).format).toBe('json');
    expect(() =>
      parseArgs(['sweep', 'x', '--vary', 'cpus=2,4', '--band', '--format', 'csv']),
    ).toThrow(/--band: --format csv/);
    expect(() => parseArgs(['check', 'x', '--band'])).toThrow(/--band does not apply to check/);
    expect(parseArgs(['calibrate', '--band', '--format', 'csv']).band).toBe(true);
  });

  it('spans the three runs whichever end is lower, and skips what is not a number', () => {
    const b = summaryBand(
      { ipis: 3, total: 100, notes: [], op: { count: 2, mean: 10, p50: 9, p99: 12, max: 12 } },
      { ipis: 3, total: 180, notes: [], op: { count: 2, mean: 6, p50: 5, p99: 7, max: 7 } },
      { ipis: 4, total: 60, notes: [], op: { count: 2, mean: 19, p50: 18, p99: 22, max: 22 } },
    );
    expect(b.total).toEqual({ low: 60, central: 100, high: 180, width: 3 });
    expect(b.ipis).toEqual({ low: 3, central: 3, high: 4, width: 1.33 });
    expect(b['op.mean']).toEqual({ low: 6, central: 10, high: 19, width: 3.17 });
    expect(b.notes).toBeUndefined();
  });
});

describe('calibrate --band', () => {
  it('adds each row’s band, its width and whether the measurement is inside it', () => {
    const r = cli('calibrate', '--band');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('band (low – high, width)');
    const row = r.stdout.split('\n').find((l) => l.includes('flush_info=stack_unaligned'));
    const m = /([\d.]+) – ([\d.]+) ×([\d.]+) (in|OUT)/.exec(row ?? '');
    expect(m).not.toBeNull();
    const [low, high] = [Number(m?.[1]), Number(m?.[2])];
    expect(low).toBeLessThan(2.5761);
    expect(high).toBeGreaterThan(2.5761);
    expect(m?.[4]).toBe('in');
    const json = JSON.parse(cli('calibrate', '--band', '--format', 'json').stdout);
    for (const row of json.rows) expect(row.band_low).toBeLessThanOrEqual(row.band_high);
  });
});
