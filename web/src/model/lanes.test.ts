import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../trace/trace';
import {
  ARROW_ACK,
  ARROW_IPI,
  ARROW_UNPAIRED,
  initiatorOf,
  toArrowIndex,
  toArrows,
  unpairedSends,
} from './ipis';
import { legendEntries } from './legend';
import { SPAN_TRACK, toLanes } from './lanes';
import { toPosMap } from './spacing';

let trace: Trace;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown')).trace;
});

const count = (t: Trace, k: EventKind) => t.kind.filter((x) => x === k).length;

describe('toLanes', () => {
  it('keeps one span per drawable span row of the trace', () => {
    const lanes = toLanes(trace);
    const drawable = Array.from(trace.kind).filter((k) => SPAN_TRACK.has(k)).length;
    expect(lanes.spans.length).toBe(drawable);
    expect(lanes.cpus).toBe(trace.cpus);
  });

  it('puts every handler on the handler track of its own cpu', () => {
    const lanes = toLanes(trace);
    for (let j = 0; j < lanes.spans.length; j++) {
      if (trace.kind[lanes.spans[j]] === EventKind.IpiHandler) expect(lanes.track[j]).toBe(3);
    }
  });

  it('spans the extent from zero to the end of the last event', () => {
    const [t0, t1] = toLanes(trace).extent;
    expect(t0).toBe(0);
    let end = 0;
    for (let i = 0; i < trace.n; i++) end = Math.max(end, trace.time[i] + trace.dur[i]);
    expect(t1).toBe(end);
  });
});

describe('toArrows', () => {
  it('draws one IPI arrow per handler and one ack arrow per csd unlock', () => {
    const a = toArrows(trace);
    expect(a.kind.filter((k) => k === ARROW_IPI)).toHaveLength(count(trace, EventKind.IpiHandler));
    expect(a.kind.filter((k) => k === ARROW_ACK)).toHaveLength(count(trace, EventKind.CsdUnlocked));
  });

  it('has no unpaired send in a run that finished: the model answers every IPI it sends', () => {
    const a = toArrows(trace);
    expect(a.kind.filter((k) => k === ARROW_UNPAIRED)).toHaveLength(0);
    expect(unpairedSends(trace)).toBe(0);
    expect(legendEntries(trace).map((e) => e.mark)).not.toContain('unpaired');
  });

  it("marks a send as unpaired once its handler is gone, aimed at the send's target", () => {
    const parent = Int32Array.from(trace.parent);
    const handler = trace.kind.findIndex((k) => k === EventKind.IpiHandler);
    const send = parent[handler];
    parent[handler] = -1;
    const cut = { ...trace, parent };
    const a = toArrows(cut);
    const j = a.kind.findIndex((k) => k === ARROW_UNPAIRED);
    expect(a.kind.filter((k) => k === ARROW_UNPAIRED)).toHaveLength(1);
    expect([a.row[j], a.fromCpu[j], a.toCpu[j]]).toEqual([send, trace.cpu[send], trace.arg[send]]);
    expect(legendEntries(cut).map((e) => e.mark)).toContain('unpaired');
  });

  it('points IPI arrows from the initiator to each target, forward in time', () => {
    const initiator = initiatorOf(trace);
    expect(initiator).toBe(0);
    const a = toArrows(trace);
    for (let j = 0; j < a.n; j++) {
      if (a.kind[j] !== ARROW_IPI) continue;
      expect(a.fromCpu[j]).toBe(initiator);
      expect(a.toCpu[j]).not.toBe(initiator);
      expect(trace.time[a.toRow[j]]).toBeGreaterThan(trace.time[a.fromRow[j]]);
    }
  });

  it('indexes every arrow by the positions it spans', () => {
    const a = toArrows(trace);
    const ix = toArrowIndex(a, toPosMap(trace, 'time'));
    expect(Array.from(ix.ids).sort((x, y) => x - y)).toEqual(Array.from(a.row.keys()));
    for (let j = 1; j < ix.start.length; j++)
      expect(ix.start[j]).toBeGreaterThanOrEqual(ix.start[j - 1]);
  });
});
