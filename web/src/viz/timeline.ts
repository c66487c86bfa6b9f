// Draws the whole timeline into the elements the caller owns: a base <svg> (lane
// backgrounds), a <canvas> (dense marks), and a top <svg> (labels, axis, marks when few,
// arrows, cursor and selection). Decides the level of detail per frame:
//   - few marks in the window (≤ SVG_LIMIT): every span is an SVG rect with data-row;
//   - otherwise each sub-track asks the LOD model for rows or per-pixel runs, drawn on canvas.
// Collapsed CPU groups are always aggregates. Arrows: SVG when few, thin canvas lines when
// more, hidden with a note beyond that.
import type { StepMark } from '../model/check';
import { renderCheckSteps } from './marks/checkSteps';
import { layer } from './layer';
import { select, type Selection } from 'd3';
import { candidates } from '../model/intervals';
import { toLayout, type LaneLayout } from '../model/layout';
import { TRACKS } from '../model/lanes';
import {
  binsFromPyramid,
  countInWindow,
  groupPyramid,
  toLod,
  trackPyramid,
  type BinPyramid,
} from '../model/lod';
import type { MeasuredEvents } from '../content/eventCsv';
import type { IntervalIndex } from '../model/intervals';
import { lensRows, type LensInterval } from '../model/lens';
import type { TimelineModel } from '../model/timelineModel';
import type { Columns } from './columns';
import { toPalette } from './columns';
import { set } from './dom';
import { renderAxis, renderBackgrounds, renderLabels } from './frame';
import { renderAggregates, type CanvasItem } from './marks/aggregates';
import { arrowPixels, joinArrowMarkers, renderArrows, renderArrowsCanvas } from './marks/arrows';
import { LENS_ROW, renderLens } from './marks/lens';
import { renderMeasured } from './marks/measured';
import { renderFlagInstants } from './marks/flagInstants';
import type { FlagInstants } from '../recording/types';
import { renderOverlay } from './marks/overlay';
import { hideTicksUnderCursor } from './marks/cursorTicks';
import { magnifierHeight, renderMagnifier, toMagnified, type Magnified } from './marks/magnifier';
import { renderSpans } from './marks/spans';
import { layoutGenerations, renderSteps } from './marks/steps';
import { renderViolations } from './marks/violations';
import { renderRowLabels } from './marks/rowLabels';
import type { RowLabel } from '../model/asidLabels';
import { LANE_LABEL_WIDTH, RIGHT_PAD, SIZES, TRACK_HEIGHT, toScales, type Scales } from './scales';

export const SVG_LIMIT = 400;
const NO_KINDS: ReadonlySet<string> = new Set();
export const ARROW_SVG_LIMIT = 60;
export const ARROW_CANVAS_LIMIT = 6000;
/** Beyond this many line pixels on screen, canvas arrows are hidden too (see arrowPixels). */
export const ARROW_CANVAS_PIXELS = 150_000;

export interface TimelineElements {
  base: SVGSVGElement;
  canvas: HTMLCanvasElement | null;
  top: SVGSVGElement;
}

export interface TimelineState {
  /** Visible window in ns. */
  window: [number, number];
  width: number;
  cursor: number | null;
  selected: number | null;
  highlight: readonly number[];
  /** A/B: this run's flushes that differ from their match in the other run. */
  differs?: readonly number[];
  /** A/B: the flush matched with the other run's selection. */
  matched?: number | null;
  collapsed: ReadonlySet<number>;
  /** CPUs folded into thin strips (outside a guided step's subject; see model/layout.ts). */
  fold?: ReadonlySet<number>;
  /** Latency-lens intervals drawn under their lanes (marks/lens.ts), and the kinds a step names. */
  lens?: readonly LensInterval[];
  lensSubject?: ReadonlySet<string>;
  /** A step's named stretch `[start, end]` in ns, drawn enlarged when too narrow to see. */
  magnify?: readonly [number, number] | null;
  /** Height of a lane's sub-track in px (default TRACK_HEIGHT): an embed fills a tall frame. */
  trackHeight?: number;
  /** Draw each mm's tlb_gen chart under the lanes (default); off gives the lanes the height. */
  generations?: boolean;
  initiator: number;
  /** Per-event measurements drawn under their CPU lanes (marks/measured.ts). */
  measured?: MeasuredEvents | null;
  /** A recording's events flagged irqs-off / preempt-off, as instants (marks/flagInstants.ts). */
  flagged?: FlagInstants | null;
  /** A counterexample's numbered steps (marks/checkSteps.ts). */
  steps?: readonly StepMark[] | null;
  /** Words on single rows (a step's ASID numbers; marks/rowLabels.ts). */
  labels?: readonly RowLabel[];
  dpr?: number;
  /**
   * The vertical slice of the timeline on screen (plus some margin), in its own y coordinates.
   * The canvas covers only this slice and marks outside it are not computed: on a 128-CPU
   * stack most of the timeline is scrolled away, and a software-rendered canvas costs per
   * pixel (clear, raster, commit). Default: everything.
   */
  view?: [number, number];
  /** The mode of the previous draw of the same view, if any (see the hysteresis below). */
  previousMode?: RenderStats['mode'];
  onToggleGroup?: (group: number) => void;
  onUnfold?: (first: number, last: number) => void;
}

export interface RenderStats {
  mode: 'svg' | 'canvas';
  svgMarks: number;
  canvasRects: number;
  arrows: number;
  arrowMode: 'svg' | 'canvas' | 'hidden';
  /** InvariantViolated marks drawn (each its own element; see marks/violations.ts). */
  violations: number;
  /** Generation tracks (one per mm whose tlb_gen steps) and tlb_gen steps in the window. */
  genTracks: number;
  genSteps: number;
  scales: Scales;
  layout: LaneLayout;
}

type G = Selection<SVGGElement, unknown, null, undefined>;

let nextUid = 1;
const uids = new WeakMap<Element, number>();
function uidOf(el: Element): number {
  let u = uids.get(el);
  if (u === undefined) uids.set(el, (u = nextUid++));
  return u;
}

/** The shared `layer`, clipped to the lanes where marks may reach past the plot's edge. */
function clippedLayer(
  svg: Selection<SVGSVGElement, unknown, null, undefined>,
  name: string,
  clip: string,
): G {
  const g = layer(svg, name);
  const node = g.node();
  if (node) set(node, 'clip-path', `url(#${clip})`);
  return g;
}

/** The model each top layer's keyed marks were made for. */
const drawnModel = new WeakMap<Element, TimelineModel>();

/** Canvases cleared by a draw that put nothing on them (and not resized since). */
const blank = new WeakSet<HTMLCanvasElement>();

function sizeSvg(svg: SVGSVGElement, width: number, height: number): void {
  set(svg, 'width', String(width));
  set(svg, 'height', String(height));
  set(svg, 'viewBox', `0 0 ${width} ${height}`);
}

// getComputedStyle forces a style recalculation of whatever the page changed since the last
// frame; resolve the colours once per canvas and colour scheme instead of once per draw.
const palettes = new WeakMap<Element, { dark: boolean; color: (name: string) => string }>();
function paletteOf(canvas: HTMLCanvasElement): (name: string) => string {
  // A link's theme (data-theme on the root) wins over the system's, as in app.css.
  const forced = canvas.ownerDocument.documentElement.dataset.theme;
  const dark = forced
    ? forced === 'dark'
    : typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  let p = palettes.get(canvas);
  if (!p || p.dark !== dark) palettes.set(canvas, (p = { dark, color: toPalette(canvas) }));
  return p.color;
}

/** The step's named stretch, if it is too narrow to see at this window and width. */
function magnifiedIn(
  { trace, pos }: TimelineModel,
  state: TimelineState,
  [p0, p1]: [number, number],
): Magnified | null {
  const m = state.magnify;
  if (!m || trace.cpus > 32) return null;
  const plotW = Math.max(10, state.width - RIGHT_PAD - LANE_LABEL_WIDTH);
  const px = ((pos.toPos(m[1]) - pos.toPos(m[0])) / (p1 - p0)) * plotW;
  const fold = state.fold;
  const folding = !!fold && fold.size > 0 && fold.size < trace.cpus;
  return toMagnified(trace, m, px, (c) => folding && !!fold?.has(c));
}

export function renderTimeline(
  els: TimelineElements,
  model: TimelineModel,
  state: TimelineState,
): RenderStats {
  const { trace, pos, index } = model;
  const columns: Columns = { trace, pos };
  const below = new Map<number, number>();
  for (const [cpu, n] of lensRows(state.lens ?? [])) below.set(cpu, n * LENS_ROW);
  const track = state.trackHeight ?? TRACK_HEIGHT;
  const p0 = pos.toPos(state.window[0]);
  const p1 = Math.max(pos.toPos(state.window[1]), p0 + 1e-9);
  const magnified = magnifiedIn(model, state, [p0, p1]);
  const magnifiedLast = magnified?.cpus[magnified.cpus.length - 1] ?? -1;
  const lensBelow = below.get(magnifiedLast) ?? 0;
  if (magnified) below.set(magnifiedLast, lensBelow + magnifierHeight(magnified, track));
  const layout = toLayout(
    trace.cpus,
    state.collapsed,
    { ...SIZES, trackHeight: track },
    state.fold,
    below,
  );
  const gens = layoutGenerations(
    state.generations === false ? [] : model.generations.mms,
    model.lagIndex,
    layout,
    layout.height,
  );
  const scales = toScales(layout, [p0, p1], state.width, gens.height, track);
  const { width, height, plot } = scales;
  const plotW = plot[1] - plot[0];
  const vy0 = Math.max(0, Math.floor(state.view?.[0] ?? 0));
  const vy1 = Math.max(vy0, Math.min(height, Math.ceil(state.view?.[1] ?? height)));
  const inView = (y: number) => y + track > vy0 && y < vy1;

  // Which sub-tracks are on screen, and is the view small enough for SVG marks?
  const cpuTracks: { cpu: number; track: number; ix: IntervalIndex }[] = [];
  const aggregates: { y: number; tracks: IntervalIndex[]; pyramid: BinPyramid | null }[] = [];
  for (const r of layout.rows) {
    if (r.type === 'cpu') {
      for (let t = 0; t < TRACKS; t++)
        cpuTracks.push({ cpu: r.cpu, track: t, ix: index.tracks[r.cpu * TRACKS + t] });
    } else if (r.type === 'aggregate') {
      for (let t = 0; t < TRACKS; t++) {
        const tracks: IntervalIndex[] = [];
        for (let c = r.first; c <= r.last; c++) tracks.push(index.tracks[c * TRACKS + t]);
        const pyramid = groupPyramid(index, r.first, r.last, t);
        aggregates.push({ y: r.y + t * track, tracks, pyramid });
      }
    }
  }
  // Hysteresis: coming from the canvas, switch to SVG only at half the limit, so the frame
  // that switches creates at most SVG_LIMIT / 2 elements (creating ~2,000 rects took a
  // frame's budget twice over); once in SVG, stay there up to the limit.
  const limit = state.previousMode === 'canvas' ? SVG_LIMIT / 2 : SVG_LIMIT;
  const svgMode =
    countInWindow(
      cpuTracks.map((c) => c.ix),
      p0,
      p1,
      limit + 1,
    ) <= limit;

  const svgRows: number[] = [];
  const items: CanvasItem[] = [];
  for (const { cpu, track, ix } of cpuTracks) {
    // SVG marks are few (≤ SVG_LIMIT) and stay in the DOM wherever they are; canvas marks
    // off screen are skipped.
    if (!svgMode && !inView(scales.trackY(cpu, track))) continue;
    const y = scales.trackY(cpu, track) + 1;
    // Zoomed out on a busy track: its precomputed bins (cost follows pixels, not rows).
    const pyramid = svgMode ? null : trackPyramid(index, cpu, track);
    const pyramidBins = pyramid && binsFromPyramid(pyramid, [p0, p1], plotW);
    if (pyramidBins) {
      items.push({ y, h: track - 2, bins: pyramidBins });
      continue;
    }
    const lod = toLod([ix], [p0, p1], plotW, { maxRows: svgMode ? Infinity : plotW / 3 });
    if (lod.mode === 'bins') items.push({ y, h: track - 2, bins: lod.bins });
    else if (svgMode) for (const i of lod.rows) svgRows.push(i);
    else items.push({ y, h: track - 2, rows: lod.rows });
  }
  for (const a of aggregates) {
    if (!inView(a.y)) continue;
    // Zoomed out, a collapsed group reads its precomputed bins: cost follows pixels, not rows.
    const bins = a.pyramid && binsFromPyramid(a.pyramid, [p0, p1], plotW);
    if (bins) {
      items.push({ y: a.y + 1, h: track - 2, bins });
      continue;
    }
    const lod = toLod(a.tracks, [p0, p1], plotW, { maxRows: 0 });
    if (lod.mode === 'bins') items.push({ y: a.y + 1, h: track - 2, bins: lod.bins });
  }

  // Arrows touching the window.
  const [alo, ahi] = candidates(model.arrowIndex, p0, p1);
  const arrowIds: number[] = [];
  let skipped = 0;
  let j = alo;
  for (; j < ahi && arrowIds.length <= ARROW_CANVAS_LIMIT; j++) {
    if (model.arrowIndex.end[j] < p0) skipped++;
    else arrowIds.push(model.arrowIndex.ids[j]);
  }
  // Past the limit the rest are only counted (arrows are short, so few of them end early).
  const arrowCount = j < ahi ? ahi - alo - skipped : arrowIds.length;
  let arrowMode: RenderStats['arrowMode'] =
    arrowCount <= ARROW_SVG_LIMIT ? 'svg' : arrowCount <= ARROW_CANVAS_LIMIT ? 'canvas' : 'hidden';
  if (
    arrowMode === 'canvas' &&
    els.canvas &&
    arrowPixels(arrowIds, model.arrows, scales, columns, [vy0, vy1], ARROW_CANVAS_PIXELS) >
      ARROW_CANVAS_PIXELS
  )
    arrowMode = 'hidden';

  const highlightSet = state.highlight.length ? new Set(state.highlight) : null;
  const markState = { selected: state.selected, highlight: highlightSet };

  // Base layer.
  sizeSvg(els.base, width, height);
  set(els.base, 'aria-hidden', 'true');
  const base = select(els.base);
  renderBackgrounds(layer(base, 'lanes-bg'), scales);

  // Canvas layer.
  let canvasRects = 0;
  const ctx = els.canvas?.getContext('2d') ?? null;
  if (els.canvas && ctx) {
    const dpr = state.dpr ?? 1;
    const cw = Math.round(width * dpr);
    const ch = Math.round((vy1 - vy0) * dpr);
    if (els.canvas.width !== cw || els.canvas.height !== ch) {
      els.canvas.width = cw;
      els.canvas.height = ch;
      blank.delete(els.canvas);
      els.canvas.style.width = `${width}px`;
      els.canvas.style.height = `${vy1 - vy0}px`;
    }
    const shift = `translateY(${vy0}px)`;
    if (els.canvas.style.transform !== shift) els.canvas.style.transform = shift;
    ctx.setTransform(dpr, 0, 0, dpr, 0, -vy0 * dpr);
    // A canvas left blank is not cleared again: a canvas that is written to is copied for the
    // compositor on every frame (software rendering), which SVG-mode frames need not pay.
    const empty = !items.length && arrowMode !== 'canvas';
    if (!empty || !blank.has(els.canvas)) ctx.clearRect(0, vy0, width, vy1 - vy0);
    if (empty) blank.add(els.canvas);
    else blank.delete(els.canvas);
    const color = paletteOf(els.canvas);
    if (items.length)
      renderAggregates(ctx, items, scales, columns, color, highlightSet !== null, dpr);
    if (arrowMode === 'canvas') {
      renderArrowsCanvas(ctx, Int32Array.from(arrowIds), model.arrows, scales, columns, color);
    }
  }
  for (const it of items) canvasRects += 'bins' in it ? it.bins.n : it.rows.length;

  // Top layer.
  const uid = uidOf(els.top);
  const clipId = `tl-clip-${uid}`;
  sizeSvg(els.top, width, height);
  const top = select(els.top);
  const defs = top.selectAll('defs').data([0]).join('defs');
  // Written only when they change: a clip or marker edit repaints everything that uses it.
  joinArrowMarkers(defs, ['ipi', 'ack', 'unpaired'], `tl-arrow-${uid}`);
  defs
    .selectAll<SVGClipPathElement, number>('clipPath')
    .data([0])
    .join((enter) => enter.append('clipPath').call((c) => c.append('rect').attr('y', 0)))
    .each(function () {
      set(this, 'id', clipId);
      const rect = this.firstChild as SVGRectElement;
      set(rect, 'x', String(plot[0]));
      set(rect, 'width', String(plotW));
      set(rect, 'height', String(height));
    });

  renderLabels(
    layer(top, 'labels'),
    scales,
    state.initiator,
    state.onToggleGroup ?? (() => {}),
    state.onUnfold,
  );
  // Span and arrow marks are keyed by row, and what a row means (its tooltip) is written once:
  // a new trace starts them afresh.
  const spans = clippedLayer(top, 'spans', clipId);
  const arrowLayer = clippedLayer(top, 'arrows', clipId);
  if (drawnModel.get(els.top) !== model) {
    drawnModel.set(els.top, model);
    spans.selectAll('*').remove();
    arrowLayer.selectAll('*').remove();
  }
  renderSpans(spans, Int32Array.from(svgRows), scales, columns, markState);
  renderArrows(
    arrowLayer,
    arrowMode === 'svg' ? Int32Array.from(arrowIds) : new Int32Array(0),
    model.arrows,
    scales,
    columns,
    markState,
    `tl-arrow-${uid}`,
  );
  const genStats = renderSteps(layer(top, 'generations'), gens.tracks, scales, pos, [vy0, vy1]);
  const violations = renderViolations(
    layer(top, 'violations'),
    model.violations,
    scales,
    columns,
    state.selected,
  );
  renderRowLabels(layer(top, 'row-labels'), state.labels ?? [], scales, columns);
  renderMeasured(layer(top, 'measured'), state.measured ?? null, scales, pos);
  renderFlagInstants(layer(top, 'flag-instants'), state.flagged ?? null, scales, pos);
  renderLens(layer(top, 'lenses'), state.lens ?? [], scales, state.lensSubject ?? NO_KINDS);
  renderOverlay(clippedLayer(top, 'overlay', clipId), scales, columns, {
    cursor: state.cursor,
    selected: state.selected,
    highlight: state.highlight,
    differs: state.differs,
    matched: state.matched,
  });
  // Above the overlay: a highlighted instant's filled box would hide the step's number.
  renderCheckSteps(layer(top, 'cx-steps'), state.steps ?? [], scales, columns);
  renderMagnifier(layer(top, 'magnifier'), magnified, scales, columns, lensBelow);
  renderAxis(layer(top, 'axis'), scales, pos);
  hideTicksUnderCursor(els.top);

  return {
    mode: svgMode ? 'svg' : 'canvas',
    svgMarks: svgRows.length,
    canvasRects,
    arrows: arrowCount,
    arrowMode,
    violations,
    genTracks: genStats.tracks,
    genSteps: genStats.steps,
    scales,
    layout,
  };
}

/**
 * Redraws only what the cursor and the selection change, over a scene drawn by
 * renderTimeline with the same model, window, size, groups and highlight: the overlay layer
 * and the `selected` class of the marks. Costs a few elements, whatever the trace size.
 */
export function renderInteraction(
  els: TimelineElements,
  model: TimelineModel,
  state: Pick<TimelineState, 'cursor' | 'selected' | 'highlight' | 'differs' | 'matched'>,
  stats: RenderStats,
): void {
  const top = select(els.top);
  const columns: Columns = { trace: model.trace, pos: model.pos };
  // As the marks' own renderers decide: the selected mark is never dimmed.
  const lit = state.highlight.length ? new Set(state.highlight) : null;
  for (const el of els.top.querySelectorAll('.mark.selected')) {
    el.classList.remove('selected');
    if (lit && !lit.has(Number(el.getAttribute('data-row'))) && !el.classList.contains('violation'))
      el.classList.add('dim');
  }
  if (state.selected !== null) {
    for (const el of els.top.querySelectorAll(`.mark[data-row="${state.selected}"]`)) {
      el.classList.add('selected');
      el.classList.remove('dim');
    }
  }
  renderOverlay(layer(top, 'overlay'), stats.scales, columns, {
    cursor: state.cursor,
    selected: state.selected,
    highlight: state.highlight,
    differs: state.differs,
    matched: state.matched,
  });
  hideTicksUnderCursor(els.top);
}

/** One line about what the view leaves out, or '' when everything is drawn as marks. */
export function describeStats(s: RenderStats): string {
  const parts: string[] = [];
  if (s.mode === 'canvas') parts.push('dense view: each pixel column sums what falls in it');
  if (s.arrowMode === 'canvas') parts.push(`${s.arrows.toLocaleString('en-US')} arrows drawn thin`);
  if (s.arrowMode === 'hidden') {
    parts.push(`${s.arrows.toLocaleString('en-US')} arrows hidden at this zoom`);
  }
  return parts.join(' · ');
}
