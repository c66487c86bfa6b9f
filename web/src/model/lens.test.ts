import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { runScenario, type RunResult } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind } from '../trace/trace';
import { lensIntervals, lensRows } from './lens';

const story = () => readScenario('x86-flush-info-story');
const lensOf = (r: RunResult, kinds?: string[]) =>
  lensIntervals(r.trace, kinds, r.info.costs.context_switch_ns ?? 0);

const wakeupMax = (r: RunResult) => (r.summary.wakeup_latency_ns as { max: number }).max;

let pinned: RunResult;
beforeAll(() => {
  initSimulatorForNode();
  pinned = runScenario(story());
});

describe('lensIntervals on the flush-info story (2019 design: per-CPU, pinned)', () => {
  it("draws T2's wakeup latency exactly as the summary counts it", () => {
    const [w, ...more] = lensOf(pinned, ['wakeup_latency']);
    expect(more).toEqual([]);
    expect(w.cpu).toBe(0);
    const woken = pinned.trace.kind.findIndex((k) => k === EventKind.TaskWoken);
    expect(w.start).toBe(pinned.trace.time[woken]);
    expect(w.end - w.start).toBe(wakeupMax(pinned));
  });

  it("draws T1's wait for CPU 2 as non-preemptible, within the summary's preempt-off span", () => {
    const waits = lensOf(pinned, ['nonpreempt_wait']);
    const t1 = waits.find((w) => w.cpu === 0 && w.end - w.start > 10_000);
    expect(t1).toBeDefined();
    const wait = pinned.trace.kind.findIndex((k) => k === EventKind.IpiWait);
    expect(t1?.start).toBe(pinned.trace.time[wait]);
    expect(t1!.end - t1!.start).toBeLessThanOrEqual(pinned.summary.preempt_off_ns.max);
    expect(t1!.end - t1!.start).toBeGreaterThan(0.9 * pinned.summary.preempt_off_ns.max);
  });

  it('draws the IPI held pending on CPU 2 by its interrupts-off window', () => {
    const [held] = lensOf(pinned, ['irqs_off_delay']);
    expect(held.cpu).toBe(2);
    const irqsOff = pinned.trace.kind.findIndex(
      (k, i) => k === EventKind.IrqsOff && pinned.trace.cpu[i] === 2,
    );
    // From the send until V re-enables interrupts and the handler runs.
    expect(held.end).toBe(pinned.trace.time[irqsOff] + pinned.trace.dur[irqsOff]);
    expect(pinned.trace.kind[pinned.trace.parent[held.row]]).toBe(EventKind.IpiSent);
  });

  it('stacks overlapping intervals on one CPU instead of drawing them over each other', () => {
    const all = lensOf(pinned);
    const cpu0 = all.filter((iv) => iv.cpu === 0 && iv.end - iv.start > 10_000);
    expect(cpu0.map((iv) => iv.kind).sort()).toEqual(['nonpreempt_wait', 'wakeup_latency']);
    expect(new Set(cpu0.map((iv) => iv.level)).size).toBe(2);
    expect(lensRows(all).get(0)).toBe(2);
  });

  it('finds no non-preemptible wait once the wait is preemptible (2026 design)', () => {
    const r = runScenario(story(), { overrides: ['flush_info=stack', 'preempt=preemptible_wait'] });
    expect(lensOf(r, ['nonpreempt_wait'])).toEqual([]);
    // T2 now runs at once: its wakeup latency is the context switch, not CPU 2's window.
    const [w] = lensOf(r, ['wakeup_latency']);
    expect(w.end - w.start).toBe(wakeupMax(r));
    expect(w.end - w.start).toBeLessThan(5_000);
  });
});

describe('every step that names a lens', () => {
  it('has at least one such interval on its CPUs in its run', () => {
    const dir = resolve('content/scenarios');
    let checked = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.toml'))) {
      const text = readScenario(f.replace(/\.toml$/, ''));
      const steps = runScenario(text).info.steps;
      for (const [i, step] of steps.entries()) {
        if (!step.lens.length) continue;
        const r = runScenario(text, { overrides: step.set });
        const cpus = [...step.cpus, ...step.expand];
        for (const kind of step.lens) {
          const found = lensOf(r, [kind]).filter((iv) => !cpus.length || cpus.includes(iv.cpu));
          expect(found.length, `${f} step ${i + 1}: a ${kind} interval`).toBeGreaterThan(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
