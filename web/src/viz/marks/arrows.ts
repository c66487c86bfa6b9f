// Arrow mark: IPI sends to handlers, csd unlocks (acks) back to the waiting sender, and sends
// no recorded handler answers (drawn to the target's lane at the send's time, open-ended).
// SVG with arrowheads when few; thin canvas lines when many (see timeline.ts for limits).
import type { BaseType, Selection } from 'd3';
import { ARROW_ACK, ARROW_IPI, ARROW_UNPAIRED, type Arrows } from '../../model/ipis';
import type { Columns } from '../columns';
import { set } from '../dom';
import { formatNs, type Scales } from '../scales';
import type { MarkState } from './spans';

/** Arrow kind → its CSS / marker name. */
export const KIND_NAME = ['ipi', 'ack', 'unpaired'] as const;
export type ArrowName = (typeof KIND_NAME)[number];

/**
 * The arrowheads of `kinds` in `defs`, with ids `${idPrefix}-${kind}`: a filled triangle, and
 * for an unpaired send an open ring (it arrived somewhere nobody recorded). Attributes are
 * written only when they change: a marker edit repaints every line that uses it.
 */
export function joinArrowMarkers<D, P extends BaseType, PD>(
  defs: Selection<BaseType | SVGDefsElement, D, P, PD>,
  kinds: readonly ArrowName[],
  idPrefix: string,
): void {
  defs
    .selectAll<SVGMarkerElement, ArrowName>('marker')
    .data(kinds, (d) => d)
    .join((enter) =>
      enter
        .append('marker')
        .attr('viewBox', '0 0 10 10')
        .attr('refX', 9)
        .attr('refY', 5)
        .attr('markerWidth', 6)
        .attr('markerHeight', 6)
        .attr('orient', 'auto-start-reverse')
        .call((m) =>
          m
            .append('path')
            .attr('d', (d) =>
              d === 'unpaired' ? 'M 9 5 A 4 4 0 1 1 1 5 A 4 4 0 1 1 9 5' : 'M 0 0 L 10 5 L 0 10 z',
            )
            .attr('class', (d) => `arrowhead arrowhead-${d}`),
        ),
    )
    .each(function (d) {
      set(this, 'id', `${idPrefix}-${d}`);
    });
}

/** Endpoints: IPIs leave the sender's wait track and land on the handler track; acks the reverse. */
function endpoints(a: Arrows, j: number, scales: Scales, { pos }: Columns) {
  const ipi = a.kind[j] !== ARROW_ACK;
  return {
    x1: scales.x(pos.rowStart(a.fromRow[j])),
    y1: scales.trackY(a.fromCpu[j], ipi ? 4 : 3) + scales.track / 2,
    x2: scales.x(pos.rowStart(a.toRow[j])),
    y2: scales.trackY(a.toCpu[j], ipi ? 3 : 4) + scales.track / 2,
  };
}

export function renderArrows(
  g: Selection<SVGGElement, unknown, null, undefined>,
  ids: Int32Array,
  arrows: Arrows,
  scales: Scales,
  columns: Columns,
  state: MarkState,
  markerPrefix: string,
): void {
  g.selectAll<SVGLineElement, number>('line')
    .data(ids, (j) => j)
    .join((enter) =>
      // Keyed by arrow, so the tooltip is written once; a zoom or pan frame writes only the
      // endpoints (rewriting class, marker and title on every line took ~30 µs a line).
      enter
        .append('line')
        .call((l) => l.append('title').text((j) => arrowTitle(arrows, j, columns))),
    )
    .each(function (j) {
      const p = endpoints(arrows, j, scales, columns);
      const row = arrows.row[j];
      const kind = KIND_NAME[arrows.kind[j]];
      let cls = `mark arrow arrow-${kind}`;
      if (row === state.selected) cls += ' selected';
      else if (state.highlight) cls += state.highlight.has(row) ? ' highlighted' : ' dim';
      set(this, 'class', cls);
      set(this, 'data-kind', DATA_KIND[kind]);
      set(this, 'data-row', String(row));
      set(this, 'x1', String(p.x1));
      set(this, 'y1', String(p.y1));
      set(this, 'x2', String(p.x2));
      set(this, 'y2', String(p.y2));
      set(this, 'marker-end', `url(#${markerPrefix}-${kind})`);
    });
}

export const DATA_KIND = { ipi: 'IpiArrow', ack: 'AckArrow', unpaired: 'UnpairedIpi' } as const;

function arrowTitle(arrows: Arrows, j: number, { trace }: Columns): string {
  const from = arrows.fromCpu[j];
  const to = arrows.toCpu[j];
  const t = trace.time[arrows.row[j]];
  if (arrows.kind[j] === ARROW_UNPAIRED) {
    return `IPI CPU ${from} → CPU ${to}, sent ${formatNs(t)}: no handler answering it was recorded (unpaired)`;
  }
  return arrows.kind[j] === ARROW_IPI
    ? `IPI CPU ${from} → CPU ${to}, sent ${formatNs(trace.time[arrows.fromRow[j]])}, handled ${formatNs(t)}`
    : `csd unlocked by CPU ${from} for CPU ${to} at ${formatNs(t)}`;
}

/**
 * Pixels the canvas lines for `ids` would cover inside the rows [vy0, vy1]: a long
 * anti-aliased line costs its length in blended pixels when the canvas is flushed, and with
 * software rendering 3,000 arrows across the view took 20-30 ms, most of a frame.
 */
export function arrowPixels(
  ids: ArrayLike<number>,
  arrows: Arrows,
  scales: Scales,
  columns: Columns,
  [vy0, vy1]: [number, number],
  limit = Infinity,
): number {
  const [left, right] = scales.plot;
  let sum = 0;
  for (let k = 0; k < ids.length && sum <= limit; k++) {
    const { x1, y1, x2, y2 } = endpoints(arrows, ids[k], scales, columns);
    const dy = Math.max(0, Math.min(vy1, Math.max(y1, y2)) - Math.max(vy0, Math.min(y1, y2)));
    const dx = Math.max(0, Math.min(right, Math.max(x1, x2)) - Math.max(left, Math.min(x1, x2)));
    sum += Math.max(dx, dy);
  }
  return sum;
}

/** Many arrows: 1px canvas lines without heads, batched per kind. */
export function renderArrowsCanvas(
  ctx: CanvasRenderingContext2D,
  ids: Int32Array,
  arrows: Arrows,
  scales: Scales,
  columns: Columns,
  color: (name: string) => string,
): void {
  const [left, right] = scales.plot;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, 0, right - left, scales.height);
  ctx.clip();
  ctx.lineWidth = 0.75;
  ctx.globalAlpha = 0.5;
  for (const kind of [ARROW_IPI, ARROW_ACK, ARROW_UNPAIRED]) {
    ctx.strokeStyle = color(`--arrow-${KIND_NAME[kind]}`);
    ctx.setLineDash(kind === ARROW_UNPAIRED ? [1, 2] : []);
    ctx.beginPath();
    for (const j of ids) {
      if (arrows.kind[j] !== kind) continue;
      const p = endpoints(arrows, j, scales, columns);
      ctx.moveTo(p.x1, p.y1);
      ctx.lineTo(p.x2, p.y2);
    }
    ctx.stroke();
  }
  ctx.restore();
}
