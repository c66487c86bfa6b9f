// What the worker computes for a remote run's window beside its cells and rows (workers/
// windowServer.ts 'lens' and 'arrows'), drawn on the remote timeline's top SVG: the latency
// lens's intervals as brackets along the bottom of their CPU's strip (labelled when the strip
// is tall enough), and IPI and ack arrows between strips, as the local timeline draws them.
import { scaleLinear, select } from 'd3';
import { ARROW_ACK } from '../model/ipis';
import type { LensInterval } from '../model/lens';
import type { WindowArrow } from '../model/windowTrace';
import { set, setText } from './dom';
import { layer } from './layer';
import { DATA_KIND, joinArrowMarkers, KIND_NAME } from './marks/arrows';
import { lensLabel } from './marks/lens';
import { REMOTE_AXIS, type RemoteLayout } from './remote';
import { formatNs } from './scales';

const svgIds = new WeakMap<SVGSVGElement, number>();
let nextSvg = 1;

/** Draws `lens` and `arrows` (either may be null: nothing) for window [t0, t1]. */
export function renderRemoteOverlay(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  [t0, t1]: [number, number],
  lens: readonly LensInterval[] | null,
  arrows: readonly WindowArrow[] | null,
  selected: number | null,
): { lens: number; arrows: number } {
  const { plot, strip, cpus } = layout;
  const x = scaleLinear().domain([t0, t1]).range(plot);
  const clampX = (t: number) => Math.max(plot[0], Math.min(plot[1], x(t)));
  // Ids of this SVG's own (two remote timelines can share a page).
  let uid = svgIds.get(svg);
  if (!uid) svgIds.set(svg, (uid = nextSvg++));
  const clipId = `remote-clip-${uid}`;
  const markerId = `remote-arrow-${uid}`;
  const top = select(svg);
  const defs = top.selectAll('defs').data([0]).join('defs');
  joinArrowMarkers(defs, ['ipi', 'ack', 'unpaired'], markerId);
  // Arrows reaching outside the window end at the plot's edge, as the local timeline's do.
  defs
    .selectAll<SVGClipPathElement, number>('clipPath')
    .data([0])
    .join((enter) => enter.append('clipPath').call((c) => c.append('rect')))
    .attr('id', clipId)
    .select('rect')
    .attr('x', plot[0])
    .attr('y', REMOTE_AXIS)
    .attr('width', Math.max(0, plot[1] - plot[0]))
    .attr('height', cpus * strip);
  const mid = (cpu: number) => REMOTE_AXIS + cpu * strip + strip / 2;
  const shownArrows = arrows ?? [];
  layer(top, 'remote-arrows')
    .attr('clip-path', `url(#${clipId})`)
    .selectAll<SVGLineElement, WindowArrow>('line')
    .data(shownArrows, (a) => `${a.kind}:${a.row}`)
    .join((enter) => enter.append('line').call((l) => l.append('title')))
    .each(function (a) {
      const kind = KIND_NAME[a.kind] ?? 'ipi';
      set(this, 'class', `mark arrow arrow-${kind}${a.row === selected ? ' selected' : ''}`);
      set(this, 'data-kind', DATA_KIND[kind]);
      set(this, 'data-row', String(a.row));
      set(this, 'x1', String(x(a.fromTime)));
      set(this, 'y1', String(mid(a.fromCpu)));
      set(this, 'x2', String(x(a.toTime)));
      set(this, 'y2', String(mid(a.toCpu)));
      set(this, 'marker-end', `url(#${markerId}-${kind})`);
      setText(
        this.firstChild as SVGTitleElement,
        a.kind === ARROW_ACK
          ? `ack: CPU ${a.fromCpu} unlocks CPU ${a.toCpu}'s csd at ${formatNs(a.fromTime)}`
          : `IPI from CPU ${a.fromCpu} at ${formatNs(a.fromTime)} to CPU ${a.toCpu}, handled at ${formatNs(a.toTime)}`,
      );
    });

  const shownLens = lens ?? [];
  // A bracket along the strip's bottom edge; its label under it only when strips are tall.
  const labelled = strip >= 14;
  layer(top, 'lenses')
    .selectAll<SVGGElement, LensInterval>('g.lens')
    .data(shownLens, (iv) => `${iv.kind}:${iv.row}:${iv.label ?? ''}`)
    .join((enter) => {
      const g = enter.append('g');
      g.append('path').attr('class', 'lens-bracket');
      g.append('text').attr('class', 'lens-label');
      g.append('title');
      return g;
    })
    .each(function (iv) {
      const x0 = clampX(iv.start);
      const x1 = Math.max(x0 + 1, clampX(iv.end));
      const y = REMOTE_AXIS + (iv.cpu + 1) * strip - 1.5;
      set(this, 'class', `lens lens-${iv.kind}`);
      set(this, 'data-lens', iv.kind);
      set(this, 'data-cpu', String(iv.cpu));
      set(this, 'data-row', String(iv.row));
      const tick = Math.min(4, strip / 2);
      const t0Tick = x(iv.start) >= plot[0] ? `M${x0},${y - tick}V${y}` : '';
      const t1Tick = x(iv.end) <= plot[1] ? `M${x1},${y - tick}V${y}` : '';
      set(this.children[0], 'd', `${t0Tick}M${x0},${y}H${x1}${t1Tick}`);
      const label = lensLabel(iv);
      const text = this.children[1] as SVGTextElement;
      const fits = labelled && x1 - x0 >= label.length * 6.2 + 8;
      set(text, 'x', String((x0 + x1) / 2));
      set(text, 'y', String(y - 3));
      set(text, 'text-anchor', 'middle');
      setText(text, fits ? label : '');
      setText(
        this.children[2] as SVGTitleElement,
        `${label} on CPU ${iv.cpu}: ${formatNs(iv.start)} to ${formatNs(iv.end)}`,
      );
    });
  return { lens: shownLens.length, arrows: shownArrows.length };
}

/** A guided step's rows (their columns as the worker sent them): outlined where they are. */
export interface LitRows {
  rows: Int32Array;
  columns: { time: ArrayLike<number>; dur: ArrayLike<number>; cpu: ArrayLike<number> };
}

/**
 * A guided step's subject on a remote run's timeline: each highlighted row outlined at its
 * CPU's strip and time (an instant as a filled box), as the local timeline outlines them, and
 * the strips of CPUs outside the step's subject veiled (the local timeline folds them; these
 * strips are too thin to fold). Returns how many outlines are in the window.
 */
export function renderRemoteHighlights(
  svg: SVGSVGElement,
  layout: RemoteLayout,
  [t0, t1]: [number, number],
  lit: LitRows | null,
  focus: readonly number[] | null,
): number {
  const { plot, strip, cpus } = layout;
  const x = scaleLinear().domain([t0, t1]).range(plot);
  const top = select(svg);
  // Runs of consecutive CPUs outside the subject, one veil each.
  const veils: [number, number][] = [];
  if (focus?.length) {
    const inFocus = new Set(focus);
    for (let c = 0; c < cpus; c++) {
      if (inFocus.has(c)) continue;
      const last = veils[veils.length - 1];
      if (last && last[1] === c - 1) last[1] = c;
      else veils.push([c, c]);
    }
  }
  layer(top, 'remote-focus')
    .selectAll<SVGRectElement, [number, number]>('rect')
    .data(veils)
    .join((enter) => enter.append('rect').call((r) => r.append('title')))
    .each(function ([a, b]) {
      set(this, 'class', 'remote-unfocused');
      set(this, 'x', String(plot[0]));
      set(this, 'width', String(Math.max(0, plot[1] - plot[0])));
      set(this, 'y', String(REMOTE_AXIS + a * strip));
      set(this, 'height', String((b - a + 1) * strip));
      set(this, 'data-cpus', `${a}-${b}`);
      setText(
        this.firstChild as SVGTitleElement,
        a === b ? `CPU ${a}: not this step's subject` : `CPUs ${a}–${b}: not this step's subject`,
      );
    });
  const shown: number[] = [];
  if (lit)
    for (let j = 0; j < lit.rows.length; j++) {
      const s = lit.columns.time[j];
      if (s <= t1 && s + lit.columns.dur[j] >= t0) shown.push(j);
    }
  layer(top, 'remote-highlights')
    .selectAll<SVGRectElement, number>('rect')
    .data(shown, (j) => String(lit?.rows[j]))
    .join('rect')
    .each(function (j) {
      if (!lit) return;
      const c = lit.columns;
      const instant = c.dur[j] === 0;
      const a = Math.max(plot[0], x(c.time[j]));
      const b = Math.min(plot[1], x(c.time[j] + c.dur[j]));
      const [x0, w] = instant ? [a - 3, 6] : [a, Math.max(2, b - a)];
      set(this, 'class', instant ? 'highlight-outline highlight-instant' : 'highlight-outline');
      set(this, 'data-row', String(lit.rows[j]));
      // As the local timeline marks a step's outlines: what the step is about.
      set(this, 'data-subject', 'mark');
      set(this, 'x', String(x0));
      set(this, 'width', String(w));
      set(this, 'y', String(REMOTE_AXIS + c.cpu[j] * strip));
      set(this, 'height', String(Math.max(2, strip - 1)));
    });
  return shown.length;
}
