import { describe, expect, it } from 'vitest';
import { VOCABULARY } from '../sim/vocabulary.generated';
import type { Summary } from '../trace/summary';
import {
  chosenKernel,
  commitsOf,
  figuresOf,
  historyKeys,
  historyRows,
  historySource,
  kernelOverrides,
  kernelSetting,
  stepKernel,
  workloadOf,
  type KernelFigures,
  type KernelStep,
} from './kernelHistory';

const KERNELS: KernelStep[] = [
  { name: 'old', change: 'before anything', set: ['pcid=off', 'pti=off'] },
  { name: 'mid', change: '0123456789ab x86/mm: PCID: keep entries', set: ['pcid=on'] },
  {
    name: 'new',
    change: 'aaaaaaaaaaaa one, bbbbbbbbbbbb two',
    set: ['pcid=on', 'preempt=preemptible_wait'],
  },
];

function figures(over: Partial<KernelFigures> = {}): KernelFigures {
  return {
    opLatencyNs: 4000,
    flushLatencyNs: 2000,
    preemptOffMaxNs: 2000,
    ipis: 3,
    violated: [],
    machine: 'generic-x86',
    ...over,
  };
}

describe('the overrides the slider writes', () => {
  it('owns kernel= and every toggle some kernel sets', () => {
    expect([...historyKeys(KERNELS)].sort()).toEqual(['kernel', 'pcid', 'preempt', 'pti']);
  });

  it('keeps the workload and replaces the toggles a kernel sets', () => {
    const mine = ['cpus=8', 'pcid=off', 'preempt=pinned', 'seed_like=1'];
    expect(workloadOf(KERNELS, mine)).toEqual(['cpus=8', 'seed_like=1']);
    expect(kernelOverrides(KERNELS, mine, 2)).toEqual([
      'cpus=8',
      'seed_like=1',
      'kernel=new',
      'pcid=on',
      'preempt=preemptible_wait',
    ]);
  });

  it('reads the chosen kernel back, and the toggles changed since', () => {
    const at = kernelOverrides(KERNELS, ['cpus=8'], 1);
    expect(chosenKernel(KERNELS, at)).toEqual({ index: 1, departures: [] });
    expect(chosenKernel(KERNELS, [...at, 'pti=on'])).toEqual({ index: 1, departures: ['pti=on'] });
    expect(
      chosenKernel(
        KERNELS,
        at.filter((o) => o !== 'pcid=on'),
      ),
    ).toEqual({
      index: 1,
      departures: ['pcid (default)'],
    });
    expect(chosenKernel(KERNELS, ['cpus=8'])).toBeNull();
    expect(chosenKernel(KERNELS, ['kernel=9.9'])).toBeNull();
  });

  it('credits a toggle to the kernel while it holds the kernel’s value', () => {
    const at = kernelOverrides(KERNELS, ['cpus=8'], 2);
    expect(kernelSetting(KERNELS, at, 'preempt')).toBe('new');
    expect(kernelSetting(KERNELS, at, 'cpus')).toBeNull();
    expect(kernelSetting(KERNELS, at, 'kernel')).toBeNull();
    expect(kernelSetting(KERNELS, [...at, 'preempt=pinned'], 'preempt')).toBeNull();
    expect(kernelSetting(KERNELS, ['preempt=preemptible_wait'], 'preempt')).toBeNull();
  });

  it('steps through the kernels and stops at either end', () => {
    expect(stepKernel(KERNELS, [], 1)).toEqual(kernelOverrides(KERNELS, [], 0));
    expect(stepKernel(KERNELS, [], -1)).toEqual(kernelOverrides(KERNELS, [], 2));
    const mid = kernelOverrides(KERNELS, [], 1);
    expect(chosenKernel(KERNELS, stepKernel(KERNELS, mid, 1)!)?.index).toBe(2);
    expect(chosenKernel(KERNELS, stepKernel(KERNELS, mid, -1)!)?.index).toBe(0);
    expect(stepKernel(KERNELS, kernelOverrides(KERNELS, [], 2), 1)).toBeNull();
    expect(stepKernel(KERNELS, kernelOverrides(KERNELS, [], 0), -1)).toBeNull();
  });

  it('covers every kernel the simulator knows, each with what its step changed', () => {
    const real = VOCABULARY.kernels;
    expect(real.length).toBeGreaterThan(1);
    for (let i = 0; i < real.length; i++) {
      const o = kernelOverrides(real, ['cpus=4'], i);
      expect(chosenKernel(real, o)).toEqual({ index: i, departures: [] });
      expect(real[i].change.length).toBeGreaterThan(0);
    }
    // Every step after the first names the commit that made it.
    for (const k of real.slice(1)) expect(commitsOf(k.change).length).toBeGreaterThan(0);
  });
});

describe('the history table', () => {
  it('reads the figures tlbscope history prints from a summary', () => {
    const summary = {
      events: 10,
      trace_rows: 10,
      sim_time_ns: 100,
      ipis: 4,
      machine: 'zen3-epyc-7763-128',
      op_latency_ns: { count: 0, mean: 0, p50: 0, p99: 0, max: 0 },
      flush_latency_ns: { count: 2, mean: 1500, p50: 1500, p99: 1600, max: 1600 },
      preempt_off_ns: { count: 2, mean: 1700, p50: 1700, p99: 1800, max: 1800 },
      violations: [
        { invariant: 'I4', cpu: 1, time_ns: 5, detail: '' },
        { invariant: 'I1', cpu: 0, time_ns: 3, detail: '' },
        { invariant: 'I4', cpu: 2, time_ns: 9, detail: '' },
      ],
    } as unknown as Summary;
    expect(figuresOf(summary)).toEqual({
      opLatencyNs: null,
      flushLatencyNs: 1500,
      preemptOffMaxNs: 1800,
      ipis: 4,
      violated: ['I1', 'I4'],
      machine: 'zen3-epyc-7763-128',
    });
  });

  it('compares each kernel with the previous one, safety included', () => {
    const rows = historyRows(KERNELS, [
      { status: 'done', figures: figures() },
      {
        status: 'done',
        figures: figures({ opLatencyNs: 3700, preemptOffMaxNs: 400, violated: ['I1'] }),
      },
      { status: 'done', figures: figures({ opLatencyNs: 3700, ipis: 5 }) },
    ]);
    expect(rows[0].opLatency).toEqual({ ns: 4000, delta: null });
    expect(rows[0].safetyChange).toBeNull();
    expect(rows[0].commits).toEqual([]);
    expect(rows[1].opLatency).toEqual({ ns: 3700, delta: -300 });
    expect(rows[1].preemptOffMax).toEqual({ ns: 400, delta: -1600 });
    expect(rows[1].safety).toBe('breaks I1');
    expect(rows[1].safetyChange).toBe('breaks I1');
    expect(rows[1].commits).toEqual(['0123456789ab']);
    expect(rows[2].safety).toBe('safe');
    expect(rows[2].safetyChange).toBe('no longer breaks I1');
    expect(rows[2].ipis).toEqual({ n: 5, delta: 2 });
    expect(rows[2].commits).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
  });

  it('leaves a pending or failed kernel blank and does not compare the next one with it', () => {
    const rows = historyRows(KERNELS, [
      { status: 'error', message: 'budget' },
      { status: 'done', figures: figures() },
      { status: 'pending' },
    ]);
    expect(rows[0]).toMatchObject({ opLatency: null, safety: null, error: 'budget' });
    expect(rows[1].opLatency).toEqual({ ns: 4000, delta: null });
    expect(rows[2]).toMatchObject({ flushLatency: null, error: null });
  });

  it('a scenario without ops has no op latency and no delta of it', () => {
    const rows = historyRows(KERNELS, [
      { status: 'done', figures: figures({ opLatencyNs: null }) },
      { status: 'done', figures: figures({ opLatencyNs: null, flushLatencyNs: 1900 }) },
    ]);
    expect(rows[1].opLatency).toEqual({ ns: null, delta: null });
    expect(rows[1].flushLatency).toEqual({ ns: 1900, delta: -100 });
  });

  it('names the preset, scenario, seed and the reader’s settings', () => {
    expect(historySource('x86-lazy-tlb', ['generic-x86', 'generic-x86'], 3, ['cpus=8'])).toBe(
      'Predicted by the tlbscope model with the generic-x86 machine preset: scenario x86-lazy-tlb, seed 3, your settings cpus=8. Not measured.',
    );
    expect(historySource('s', [], 1, [])).toContain('the scenario’s machine preset');
  });
});
