// @vitest-environment jsdom
// One join of the arrowheads serves the explorer's timeline and the remote run's overlay: each
// SVG gets its own ids, an unpaired send ends in an open ring, and a second join (the next
// frame) neither duplicates nor rewrites the markers.
import { select } from 'd3';
import { describe, expect, it } from 'vitest';
import { ARROW_UNPAIRED } from '../../model/ipis';
import { remoteLayout } from '../remote';
import { renderRemoteOverlay } from '../remoteOverlay';
import { joinArrowMarkers } from './arrows';

const SVG = 'http://www.w3.org/2000/svg';

describe('joinArrowMarkers', () => {
  it('gives each kind a marker under the prefix, the unpaired one a ring', () => {
    const svg = document.createElementNS(SVG, 'svg');
    const defs = select(svg).selectAll('defs').data([0]).join('defs');
    joinArrowMarkers(defs, ['ipi', 'ack', 'unpaired'], 'p-1');
    const first = [...svg.querySelectorAll('marker')];
    expect(first.map((m) => m.id)).toEqual(['p-1-ipi', 'p-1-ack', 'p-1-unpaired']);
    const d = first.map((m) => m.querySelector('path')?.getAttribute('d') ?? '');
    expect(d[0]).toBe(d[1]);
    expect(d[2]).toMatch(/ A /); // an arc: the open ring
    joinArrowMarkers(defs, ['ipi', 'ack', 'unpaired'], 'p-1');
    expect([...svg.querySelectorAll('marker')]).toEqual(first);
  });

  it("serves the remote overlay: an unpaired send's line ends in its SVG's own ring", () => {
    const layout = remoteLayout(4, 800);
    const draw = (svg: SVGSVGElement) =>
      renderRemoteOverlay(
        svg,
        layout,
        [0, 100],
        null,
        [
          {
            kind: ARROW_UNPAIRED,
            row: 7,
            fromRow: 7,
            toRow: 7,
            fromTime: 40,
            toTime: 40,
            fromCpu: 0,
            toCpu: 2,
          },
        ],
        null,
      );
    const a = document.createElementNS(SVG, 'svg');
    const b = document.createElementNS(SVG, 'svg');
    expect(draw(a).arrows).toBe(1);
    draw(b);
    const end = (svg: SVGSVGElement) =>
      svg.querySelector('line.arrow-unpaired')?.getAttribute('marker-end');
    const ring = (svg: SVGSVGElement) => svg.querySelector('marker[id$="-unpaired"]')?.id;
    expect(end(a)).toBe(`url(#${ring(a)})`);
    expect(end(b)).toBe(`url(#${ring(b)})`);
    expect(ring(a)).not.toBe(ring(b));
  });
});
