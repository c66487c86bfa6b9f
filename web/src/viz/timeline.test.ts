// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { initiatorOf, toArrows } from '../model/ipis';
import { toLanes } from '../model/lanes';
import { runScenario } from '../sim/session';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../sim/trace';
import { renderTimeline } from './timeline';

let trace: Trace;

beforeAll(() => {
  initSimulatorForNode();
  trace = runScenario(readScenario('x86-munmap-shootdown')).trace;
});

function draw(window?: [number, number]): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.append(svg);
  const lanes = toLanes(trace);
  renderTimeline(
    svg,
    { trace, lanes, arrows: toArrows(trace), initiator: initiatorOf(trace) },
    900,
    window ?? lanes.extent,
  );
  return svg;
}

describe('renderTimeline', () => {
  it('draws one lane per cpu, labelling the initiator', () => {
    const svg = draw();
    const labels = [...svg.querySelectorAll('.lane-label')].map((e) => e.textContent);
    expect(labels).toEqual(['CPU 0 · initiator', 'CPU 1', 'CPU 2', 'CPU 3']);
  });

  it('draws every IPI handler span and every arrow the trace records', () => {
    const svg = draw();
    const handlers = trace.kind.filter((k) => k === EventKind.IpiHandler).length;
    expect(svg.querySelectorAll('[data-kind="IpiHandler"]')).toHaveLength(handlers);
    expect(svg.querySelectorAll('[data-kind="IpiArrow"]')).toHaveLength(handlers);
    expect(svg.querySelectorAll('[data-kind="AckArrow"]')).toHaveLength(
      trace.kind.filter((k) => k === EventKind.CsdUnlocked).length,
    );
  });

  it('skips marks outside the visible window', () => {
    const svg = draw([1e12, 2e12]);
    expect(svg.querySelectorAll('[data-kind="IpiHandler"]')).toHaveLength(0);
  });

  it('redraws in place instead of appending duplicates', () => {
    const svg = draw();
    const lanes = toLanes(trace);
    const input = { trace, lanes, arrows: toArrows(trace), initiator: 0 };
    renderTimeline(svg, input, 900, lanes.extent);
    expect(svg.querySelectorAll('g.lane')).toHaveLength(trace.cpus);
    expect(svg.querySelectorAll('g.spans')).toHaveLength(1);
  });
});
