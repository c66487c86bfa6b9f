import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../trace/trace';
import { causalChain, describeRow, kernelFunction, nextRow, prevRow, rowsInWindow } from './events';

let trace: Trace;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown')).trace;
});

const first = (k: EventKind) => trace.kind.findIndex((x) => x === k);

describe('causalChain', () => {
  it('leads from the flush through the IPI to the handler and its ack', () => {
    const ack = first(EventKind.CsdUnlocked);
    const kinds = causalChain(trace, ack).map((i) => trace.kind[i]);
    expect(kinds).toEqual([
      EventKind.FlushRange,
      EventKind.IpiSent,
      EventKind.IpiHandler,
      EventKind.CsdUnlocked,
    ]);
  });

  it('is just the row itself for a row without a cause', () => {
    const run = first(EventKind.TaskRun);
    expect(causalChain(trace, run)).toEqual([run]);
  });
});

describe('stepping', () => {
  it('visits every row once forward and once backward', () => {
    const forward: number[] = [];
    let r: number | null = null;
    let t = -1;
    for (;;) {
      const n = nextRow(trace, r, t);
      if (n < 0) break;
      forward.push(n);
      r = n;
      t = trace.time[n];
    }
    expect(forward).toEqual(Array.from({ length: trace.n }, (_, i) => i));
    const backward: number[] = [];
    for (;;) {
      const p = prevRow(trace, r, t);
      if (p < 0) break;
      backward.push(p);
      r = p;
      t = trace.time[p];
    }
    expect(backward).toEqual(forward.slice(0, -1).reverse());
  });
});

describe('words for rows', () => {
  it('names the kernel function an IPI handler models', () => {
    expect(kernelFunction(EventKind.FlushTlbFunc)).toBe('flush_tlb_func()');
  });

  it('describes an IPI with its sender and target', () => {
    const i = first(EventKind.IpiSent);
    expect(describeRow(trace, i)).toBe(`CPU 0 sends a call-function IPI to CPU ${trace.arg[i]}`);
  });

  it('lists the rows of a window up to a limit, reporting the total', () => {
    const all = rowsInWindow(trace, 0, Infinity, 5);
    expect(all.rows).toEqual([0, 1, 2, 3, 4]);
    expect(all.total).toBe(trace.n);
  });
});
