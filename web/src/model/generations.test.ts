import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../trace/trace';
import {
  lastRowAt,
  rasteriseLag,
  rasteriseLagRow,
  slotAt,
  tlbGenAt,
  toGenerations,
  toLagIndex,
  type MmGenerations,
} from './generations';
import { toPosMap } from './spacing';

let r8: Trace;
let r1: Trace;

beforeAll(() => {
  initSimulatorForNode();
  r8 = runScenario(readScenario('x86-r8-plus-one-rule')).trace;
  r1 = runScenario(readScenario('x86-r1-percpu-descriptor-race')).trace;
});

const rowsOf = (t: Trace, k: EventKind, pred: (i: number) => boolean = () => true) =>
  Array.from({ length: t.n }, (_, i) => i).filter((i) => t.kind[i] === k && pred(i));
const mmOf = (t: Trace, m: number): MmGenerations => {
  const g = toGenerations(t).mms.find((x) => x.mm === m);
  if (!g) throw new Error(`no track for mm ${m}`);
  return g;
};

describe('toGenerations', () => {
  it('has one track per mm that is incremented, stepping with every TlbGenIncremented', () => {
    const gens = toGenerations(r8);
    const incremented = new Set(rowsOf(r8, EventKind.TlbGenIncremented).map((i) => r8.mm[i]));
    expect(gens.mms.map((g) => g.mm)).toEqual([...incremented].sort());
    for (const g of gens.mms) {
      const incs = rowsOf(r8, EventKind.TlbGenIncremented, (i) => r8.mm[i] === g.mm);
      // Row 0 holds the generation before the first increment.
      expect(Array.from(g.tlbGen.row)).toEqual([0, ...incs]);
      expect(g.tlbGen.value[0]).toBe(r8.gen[incs[0]] - 1);
      for (const i of incs) expect(tlbGenAt(g, i)).toBe(r8.gen[i]);
    }
  });

  it('starts every slot at the generation its switch_mm read', () => {
    const g = mmOf(r8, 1);
    for (const i of rowsOf(r8, EventKind.SwitchMm, (i) => r8.mm[i] === 1)) {
      const s = g.slots.find((x) => x.cpu === r8.cpu[i]);
      expect(s && slotAt(s, i)).toBe(r8.gen[i]);
    }
  });

  it('advances a slot to the mm’s tlb_gen, not the request’s, when flush_tlb_func flushes', () => {
    // plus_one_rule = off: CPU 7's partial flush for Y's request (gen 3) claims gen 3 while
    // X's change of gen 2 is not flushed; the simulator's I2 message says "from gen 1 to 3".
    const g = mmOf(r8, 1);
    const cpu7 = g.slots.find((s) => s.cpu === 7)!;
    const func = rowsOf(r8, EventKind.FlushTlbFunc, (i) => r8.cpu[i] === 7 && r8.arg[i] === 1)[0];
    const i2 = rowsOf(
      r8,
      EventKind.InvariantViolated,
      (i) => r8.cpu[i] === 7 && r8.strings[r8.arg[i]].startsWith('I2'),
    )[0];
    const [, from, to] = /from gen (\d+) to (\d+)/.exec(r8.strings[r8.arg[i2]])!.map(Number);
    expect(slotAt(cpu7, func - 1)).toBe(from);
    expect(slotAt(cpu7, func)).toBe(to);
    expect(tlbGenAt(g, func)).toBe(to);
  });

  it('shows the lagging CPU of the R1 race behind its mm when the stale translation is used', () => {
    // The per-CPU descriptor is overwritten: CPU 2 never flushes mm 1's gen 2 and uses a stale
    // translation (I3) while its slot still says gen 1.
    const g = mmOf(r1, 1);
    const cpu2 = g.slots.find((s) => s.cpu === 2)!;
    const i3 = rowsOf(r1, EventKind.InvariantViolated, (i) =>
      r1.strings[r1.arg[i]].startsWith('I3'),
    )[0];
    expect(r1.cpu[i3]).toBe(2);
    expect(tlbGenAt(g, i3)).toBe(2);
    expect(slotAt(cpu2, i3)).toBe(1);
    // CPU 0 flushed, and is unknown (NaN) while it runs mm 2.
    const cpu0 = g.slots.find((s) => s.cpu === 0)!;
    const flushed = rowsOf(r1, EventKind.FlushTlbFunc, (i) => r1.cpu[i] === 0 && r1.mm[i] === 1);
    expect(slotAt(cpu0, flushed[0])).toBe(2);
    const toMm2 = rowsOf(r1, EventKind.SwitchMm, (i) => r1.cpu[i] === 0 && r1.mm[i] === 2)[0];
    expect(slotAt(cpu0, toMm2)).toBeNaN();
  });

  it('records the mm’s generation beside the slot at every step, so lag = gen − slot', () => {
    for (const t of [r8, r1]) {
      for (const g of toGenerations(t).mms) {
        for (const s of g.slots) {
          for (let j = 0; j < s.row.length; j++) {
            expect(s.gen[j]).toBe(tlbGenAt(g, s.row[j]));
            if (!Number.isNaN(s.slot[j])) expect(s.slot[j]).toBeLessThanOrEqual(s.gen[j]);
          }
        }
      }
    }
  });

  it('has no tracks for an arm64 trace (no per-CPU generations)', () => {
    const arm = runScenario(readScenario('arm64-fork-cow')).trace;
    expect(toGenerations(arm).mms).toEqual([]);
  });
});

describe('lastRowAt', () => {
  it('maps a position to the last row starting at or before it, in both spacings', () => {
    const time = toPosMap(r1, 'time');
    const event = toPosMap(r1, 'event');
    for (const i of [0, 5, 20, r1.n - 1]) {
      expect(r1.time[lastRowAt(time, r1.time[i])]).toBe(r1.time[i]);
      expect(lastRowAt(event, i)).toBe(i);
      expect(lastRowAt(event, i + 0.5)).toBe(i);
    }
    expect(lastRowAt(time, -1)).toBe(-1);
  });
});

describe('rasteriseLag', () => {
  it('through the pyramid, never hides a lag the exact scan shows, nor invents a worse one', () => {
    const t = runScenario(readScenario('x86-munmap-shootdown'), {
      overrides: ['cpus=4', 'flushes=3000'],
    }).trace;
    const pos = toPosMap(t, 'time');
    const g = toGenerations(t).mms[0];
    const s = g.slots.reduce((a, b) => (b.row.length > a.row.length ? b : a));
    const ix = toLagIndex(s, pos);
    expect(ix.levels.length).toBeGreaterThan(0);
    const exact = { ...ix, levels: [] };
    const [e0, e1] = pos.extent;
    for (const [a, b] of [
      [e0, e1],
      [e0 + (e1 - e0) * 0.3, e0 + (e1 - e0) * 0.5],
    ]) {
      const fast = new Int32Array(400).fill(-1);
      const slow = new Int32Array(400).fill(-1);
      rasteriseLag(ix, a, b, fast);
      rasteriseLag(exact, a, b, slow);
      let worse = 0;
      for (let c = 0; c < 400; c++) {
        // Bins straddle column edges, so a neighbour's state may show one column early.
        const near = Math.max(slow[c], slow[c - 1] ?? -1, slow[c + 1] ?? -1);
        expect(fast[c]).toBeGreaterThanOrEqual(slow[c]);
        if (fast[c] > near) worse++;
      }
      expect(worse).toBe(0);
      expect(Math.max(...fast)).toBe(Math.max(...slow));
    }
  });

  it('merges a collapsed group’s CPUs into one row showing the worst lag of any of them', () => {
    const t = runScenario(readScenario('x86-munmap-shootdown'), {
      overrides: ['cpus=8', 'flushes=1500'],
    }).trace;
    const pos = toPosMap(t, 'time');
    const ixs = toGenerations(t).mms[0].slots.map((s) => toLagIndex(s, pos));
    const [e0, e1] = pos.extent;
    const row = new Int32Array(300).fill(-1);
    rasteriseLagRow(ixs, e0, e1, row);
    for (const ix of ixs) {
      const one = new Int32Array(300).fill(-1);
      rasteriseLag({ ...ix, levels: [] }, e0, e1, one);
      for (let c = 0; c < 300; c++) expect(row[c]).toBeGreaterThanOrEqual(one[c]);
    }
  });
});
