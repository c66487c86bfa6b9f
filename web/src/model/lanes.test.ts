import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../sim/session';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../sim/trace';
import { initiatorOf, toArrows } from './ipis';
import { SPAN_TRACK, toLanes } from './lanes';

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
    const arrows = toArrows(trace);
    expect(arrows.filter((a) => a.kind === 'ipi')).toHaveLength(count(trace, EventKind.IpiHandler));
    expect(arrows.filter((a) => a.kind === 'ack')).toHaveLength(
      count(trace, EventKind.CsdUnlocked),
    );
  });

  it('points IPI arrows from the initiator to each target, forward in time', () => {
    const initiator = initiatorOf(trace);
    expect(initiator).toBe(0);
    for (const a of toArrows(trace).filter((x) => x.kind === 'ipi')) {
      expect(a.fromCpu).toBe(initiator);
      expect(a.toCpu).not.toBe(initiator);
      expect(a.toTime).toBeGreaterThan(a.fromTime);
    }
  });
});
