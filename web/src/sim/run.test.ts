import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  columnRange,
  columnsOf,
  finishRun,
  openSimulator,
  runScenario,
  ScenarioLoadError,
  SLICE_ROWS,
  thisBuild,
  WasmTrap,
  type Simulator,
} from './run';
import { initSimulatorForNode, readScenario } from './testing';

beforeAll(() => initSimulatorForNode());

describe('runScenario', () => {
  it('returns the scenario title and a trace with one row per recorded event', () => {
    const r = runScenario(readScenario('x86-munmap-shootdown'));
    expect(r.title).toMatch(/TLB shootdown/);
    expect(r.trace.n).toBe(r.summary.trace_rows);
    expect(r.trace.time.length).toBe(r.trace.n);
  });

  it('throws a ScenarioLoadError naming an unknown field and its line', () => {
    try {
      runScenario('title = "x"\n[machine]\ncpus = 4\nnuma_nodes = 2\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioLoadError);
      const err = e as ScenarioLoadError;
      expect(err.path).toBe('numa_nodes');
      expect(err.line).toBe(4);
      expect(err.message).toMatch(/unknown field `numa_nodes`/);
    }
  });

  it('rejects zero cpus without trapping, and the module keeps working afterwards', () => {
    expect(() => runScenario('[machine]\ncpus = 0\n')).toThrow(
      /machine\.cpus: must be between 1 and 512/,
    );
    expect(runScenario(readScenario('x86-munmap-shootdown')).trace.n).toBeGreaterThan(0);
  });

  it('rejects an unknown override by name', () => {
    expect(() => runScenario('', { overrides: ['flux_info=stack'] })).toThrow(/--set flux_info/);
  });
});

// The shared path the worker and the CLI both take (web/cli/run.mjs words its outcomes).
describe('openSimulator and finishRun', () => {
  it('returns a budget stop as a result: the partial summary and what stopped it', () => {
    const sim = openSimulator(
      thisBuild,
      readScenario('x86-munmap-shootdown'),
      ['flushes=1000', 'max_events=500'],
      1,
    );
    const run = finishRun(sim, ({ summary, budgetError }) => ({ summary, budgetError }));
    expect(run.budgetError).toMatch(/machine\.max_events: the run reached its event budget of 500/);
    expect(run.summary.events).toBe(500);
  });

  it('reports progress between budgets and ends with the same summary as one call', () => {
    const text = readScenario('x86-munmap-shootdown');
    const seen: number[] = [];
    const chunked = finishRun(
      openSimulator(thisBuild, text, ['flushes=20000'], 7),
      ({ summary }) => summary,
      { onProgress: (events) => seen.push(events) },
    );
    const whole = finishRun(openSimulator(thisBuild, text, ['flushes=20000'], 7), (r) => r.summary);
    expect(seen.length).toBeGreaterThan(0);
    expect(chunked).toEqual(whole);
  });

  it('turns a refused override into a ScenarioLoadError naming the setting', () => {
    expect(() => openSimulator(thisBuild, '', ['cpus=0'], 1)).toThrow(ScenarioLoadError);
    try {
      openSimulator(thisBuild, '', ['cpus=0'], 1);
    } catch (e) {
      expect((e as ScenarioLoadError).path).toBe('--set machine.cpus');
    }
  });

  it('turns a trap into a WasmTrap and never frees the trapped instance', () => {
    let freed = false;
    const trapping = {
      run() {
        throw new WebAssembly.RuntimeError('unreachable');
      },
      free() {
        freed = true;
      },
    } as unknown as Simulator;
    expect(() => finishRun(trapping, () => 0)).toThrow(WasmTrap);
    expect(freed).toBe(false);
  });

  it('frees the simulator when the caller fails, and keeps it when asked to', () => {
    const text = readScenario('x86-munmap-shootdown');
    const sim = openSimulator(thisBuild, text, [], 1);
    expect(() =>
      finishRun(sim, () => {
        throw new Error('caller failed');
      }),
    ).toThrow('caller failed');
    expect(() => sim.cpus).toThrow(/null pointer|moved|ownership/);
    const kept = openSimulator(thisBuild, text, [], 1);
    finishRun(kept, () => 0, { keep: true });
    expect(kept.cpus).toBeGreaterThan(0);
    kept.free();
  });
});

describe('columnRange', () => {
  // madvise-touch records 190,009 rows: three slices, the last one partial.
  const sim = (() => {
    initSimulatorForNode();
    const s = new thisBuild.Simulator(readScenario('x86-madvise-touch'), [], 1);
    s.run();
    return s;
  })();
  afterAll(() => sim.free());

  it('copies whole columns slice by slice to exactly what one call for every row returns', () => {
    expect(sim.rows).toBeGreaterThan(2 * SLICE_ROWS);
    const cols = columnsOf(sim);
    for (const name of Object.keys(cols) as (keyof typeof cols)[]) {
      const whole = sim[name]() as ArrayLike<number>;
      expect(cols[name].length, name).toBe(sim.rows);
      const col = cols[name];
      // Object.is: NaN equals NaN, so an open span left in one copy only would still show.
      const firstDiff = Array.prototype.findIndex.call(
        col,
        (v: number, i) => !Object.is(v, whole[i]),
      );
      expect(firstDiff, name).toBe(-1);
    }
  });

  it('copies a window across a slice boundary, and clamps one past the end', () => {
    const all = sim.time();
    const win = columnRange(sim, 'time', SLICE_ROWS - 3, SLICE_ROWS + 4);
    expect(Array.from(win)).toEqual(Array.from(all.subarray(SLICE_ROWS - 3, SLICE_ROWS + 4)));
    const tail = columnRange(sim, 'dur', sim.rows - 2, sim.rows + 100);
    expect(tail.length).toBe(2);
    expect(columnRange(sim, 'kind', sim.rows + 5, sim.rows + 9).length).toBe(0);
    expect(Array.from(sim.parent(10, 5))).toEqual([]);
  });

  it('gives sorted times and closed spans (no NaN) after a finished run', () => {
    const time = columnRange(sim, 'time');
    const dur = columnRange(sim, 'dur');
    expect(time.every((t, i) => i === 0 || t >= time[i - 1])).toBe(true);
    expect(dur.every((d) => Number.isFinite(d) && d >= 0)).toBe(true);
  });
});
