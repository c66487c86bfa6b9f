// Owns the timeline's elements (two <svg>s around a <canvas>); D3 and canvas code in viz/
// draw into them. Controlled: cursor and selection live in the caller's state, the window in
// a store the caller shares between timelines (A/B stay aligned). Interactions draw at once
// from a local copy of the window (one frame per animation frame at most) and write it to
// the store, which the other timelines follow on their next frame.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useFrameDraw } from '../app/useFrameDraw';
import { useWidth } from '../app/useWidth';
import { defaultCollapsed } from '../model/layout';
import { TRACKS } from '../model/lanes';
import { hitTest } from '../model/lod';
import type { MeasuredEvents } from '../content/eventCsv';
import type { FlagInstants } from '../recording/types';
import type { Spacing } from '../model/spacing';
import type { StepMark } from '../model/check';
import type { FlushFacts } from '../model/flushMatch';
import type { LensInterval } from '../model/lens';
import { fromPrebuilt } from '../model/prebuilt';
import { toTimelineModel, type TimelineModel } from '../model/timelineModel';
import { prebuiltViewOf } from '../workers/session';
import type { Trace } from '../trace/trace';
import { perfRecord, recordDraw } from '../viz/perf';
import {
  describeStats,
  renderInteraction,
  renderTimeline,
  type RenderStats,
} from '../viz/timeline';
import { exportTimelineSvg, svgToPng, type ExportText } from '../viz/exportTimeline';
import type { LitRows } from '../viz/remoteOverlay';
import { attachInteractions } from '../viz/zoom';
import { download } from '../app/download';
import { ExportButtons } from './ExportButtons';
import { RemoteTimeline } from './RemoteTimeline';
import { TimelineOverview } from './TimelineOverview';
import type { WindowStore } from '../app/windowStore';
import type { RowLabel } from '../model/asidLabels';
import '../viz/timeline.css';
import '../viz/labels.css';

export interface TimelineProps {
  trace: Trace;
  /** Visible window in ns, shared with the other timelines (app/windowStore.ts). */
  view: WindowStore;
  /** Cursor time in ns, drawn as a vertical line across lanes. */
  cursor: number | null;
  onCursorChange?: (t: number) => void;
  selected: number | null;
  onSelect?: (row: number | null) => void;
  highlight?: readonly number[];
  /** A/B: this run's flushes that differ from their match in the other run. */
  differs?: readonly number[];
  /** A/B: the flush matched with the other run's selection. */
  matched?: number | null;
  /** A/B, a run kept in its worker: its flushes that differ, with their times and CPUs. */
  differFlushes?: readonly FlushFacts[] | null;
  /** A/B, a run kept in its worker: its flush matched with the other run's selection. */
  matchedFlush?: FlushFacts | null;
  /** A guided step's subject CPUs: the others are folded into thin strips until unfolded. */
  focus?: readonly number[] | null;
  /** Latency-lens intervals to draw (model/lens.ts), and the kinds the step points at. */
  lens?: readonly LensInterval[] | null;
  lensSubject?: ReadonlySet<string>;
  /** A run kept in its worker (Trace.remote): the lens is on, its intervals asked of the worker. */
  lensAsk?: { kinds: readonly string[]; contextSwitchNs: number } | null;
  /** A run kept in its worker: the guided step's highlighted rows, as its worker sent them. */
  lit?: LitRows | null;
  /** A guided step's named stretch in ns, drawn enlarged when too narrow (Step.magnify). */
  magnify?: readonly [number, number] | null;
  /** Height of a lane's sub-track in px (default 10): an embed stretches lanes to its frame. */
  trackHeight?: number;
  /** Each mm's tlb_gen chart under the lanes (default on). */
  generations?: boolean;
  spacing?: Spacing;
  initiator?: number;
  label?: string;
  /** What the 0 key resets to, in ns (default: the whole trace). */
  fullExtent?: [number, number];
  onRendered?: () => void;
  /** Per-event measurements drawn under the CPU lanes (viz/marks/measured.ts). */
  measured?: MeasuredEvents | null;
  /** A recording's irqs-off / preempt-off flagged events (viz/marks/flagInstants.ts). */
  flagged?: FlagInstants | null;
  /** A counterexample's numbered steps (model/check.ts), drawn as badges on their lanes. */
  steps?: readonly StepMark[] | null;
  /** Words on single rows (a step's ASID numbers; model/asidLabels.ts). */
  labels?: readonly RowLabel[];
  /** Title, caption and state link for an export, read when the user exports; none: no export. */
  exportText?: () => ExportText & { fileName: string };
}

const NONE: readonly number[] = [];
const VIEW_MARGIN = 160;
const HINT = 'Ctrl+wheel or W/S zoom · drag or A/D pan · 0 reset';

/**
 * The timeline of `trace`: drawn from what its worker sends for the window on screen when the
 * run stays there (RemoteTimeline.tsx), else from the whole trace on the page.
 */
export function Timeline(props: TimelineProps) {
  return props.trace.remote ? <RemoteTimeline {...props} /> : <LocalTimeline {...props} />;
}

/**
 * The timeline of a trace the page holds: its model is built in the simulator's worker that ran it (after the
 * run for time spacing, on request for event spacing), else here. Until the new model is ready
 * the previous one stays on screen, dimmed, rather than the lanes vanishing for a moment.
 */
function LocalTimeline(props: TimelineProps) {
  const { trace, spacing = 'time' } = props;
  const [built, setBuilt] = useState<TimelineModel | null>(null);
  useEffect(() => {
    let live = true;
    const finish = (make: () => TimelineModel) => {
      if (!live) return;
      // The main thread's share of the model: rebuilding the position map around a prebuilt
      // view, or the whole build when there is none.
      const t0 = performance.now();
      const m = make();
      const p = perfRecord();
      if (p) p.modelMs = performance.now() - t0;
      setBuilt(m);
    };
    prebuiltViewOf(trace, spacing).then((v) =>
      finish(() => (v ? fromPrebuilt(trace, v) : toTimelineModel(trace, spacing))),
    );
    return () => {
      live = false;
    };
  }, [trace, spacing]);
  if (!built) return <TimelineOverview trace={trace} />;
  const current = built.trace === trace && built.pos.spacing === spacing;
  return (
    <TimelineView
      {...props}
      model={built}
      pending={!current}
      onRendered={current ? props.onRendered : undefined}
    />
  );
}

/** What the picture shows, the same for the screen and for an exported file. */
function drawnState(
  p: TimelineProps,
  win: [number, number],
  width: number,
  collapsed: ReadonlySet<number>,
  fold: ReadonlySet<number>,
) {
  return {
    window: win,
    width,
    cursor: p.cursor,
    selected: p.selected,
    highlight: p.highlight ?? NONE,
    differs: p.differs ?? NONE,
    matched: p.matched ?? null,
    collapsed,
    fold,
    lens: p.lens ?? undefined,
    lensSubject: p.lensSubject,
    generations: p.generations ?? true,
    trackHeight: p.trackHeight,
    magnify: p.magnify,
    initiator: p.initiator ?? -1,
    measured: p.measured ?? null,
    flagged: p.flagged ?? null,
    steps: p.steps ?? null,
    labels: p.labels,
  };
}

function TimelineView(props: TimelineProps & { model: TimelineModel; pending: boolean }) {
  const { model, initiator = -1, label } = props;
  const { trace } = model;
  const spacing = model.pos.spacing;
  const boxRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const topRef = useRef<SVGSVGElement>(null);
  const statusRef = useRef<HTMLSpanElement>(null);

  const [groups, setGroups] = useState({ version: -1, collapsed: new Set<number>() });
  const defaults = useMemo(() => defaultCollapsed(trace.cpus, initiator), [trace.cpus, initiator]);
  const collapsed = groups.version === trace.version ? groups.collapsed : defaults;
  const toggleGroup = useCallback(
    (g: number) => {
      const next = new Set(collapsed);
      if (!next.delete(g)) next.add(g);
      setGroups({ version: trace.version, collapsed: next });
    },
    [collapsed, trace.version],
  );

  // Folded: the CPUs outside the step's subject, less those the reader unfolded on this step.
  const { focus } = props;
  const [unfolded, setUnfolded] = useState({ focus, cpus: new Set<number>() });
  const fold = useMemo(() => {
    const out = new Set<number>();
    if (!focus?.length) return out;
    const open = unfolded.focus === focus ? unfolded.cpus : null;
    for (let c = 0; c < trace.cpus; c++) if (!focus.includes(c) && !open?.has(c)) out.add(c);
    return out;
  }, [focus, unfolded, trace.cpus]);
  const unfold = useCallback(
    (first: number, last: number) =>
      setUnfolded((u) => {
        const cpus = new Set(u.focus === focus ? u.cpus : []);
        for (let c = first; c <= last; c++) cpus.add(c);
        return { focus, cpus };
      }),
    [focus],
  );

  const width = useWidth(boxRef);

  // Where the plot is on screen, read at most every 250 ms (or after a scroll or resize):
  // reading it forces a layout of whatever the page changed since the last frame (the event
  // log, for one), so within a gesture it is read once and reused. The draw uses it to cover
  // only the rows on screen.
  // `k` is the CSS zoom the timeline is shown at (talk mode draws it larger): client
  // coordinates are k times the drawing's own.
  const place = useRef({ at: -Infinity, left: 0, top: 0, k: 1 });
  const placed = useCallback(() => {
    const el = topRef.current;
    const now = performance.now();
    if (el && now - place.current.at > 250) {
      const r = el.getBoundingClientRect();
      const own = el.width.baseVal.value;
      const k = own > 0 && r.width > 0 ? r.width / own : 1;
      place.current = { at: now, left: r.left, top: r.top, k };
    }
    place.current.at = now;
    return place.current;
  }, []);
  const viewOf = (): [number, number] => {
    const { top, k } = placed();
    const h = window.innerHeight || 1e6;
    // A margin above and below, so a scroll shows drawn rows while the next draw catches up.
    return [
      Math.floor((-top / k - VIEW_MARGIN) / 64) * 64,
      Math.ceil(((h - top) / k + VIEW_MARGIN) / 64) * 64,
    ];
  };

  // Everything the draw and the event handlers read, current as of the last render.
  const live = useRef({
    props,
    model,
    collapsed,
    fold,
    width,
    toggleGroup,
    unfold,
    win: props.view.get(),
  });
  const stats = useRef<RenderStats | null>(null);
  live.current = { ...live.current, props, model, collapsed, fold, width, toggleGroup, unfold };

  // What the last draw showed, so a prop update that only echoes an interaction (already
  // drawn) costs nothing.
  const drawn = useRef<unknown[]>([]);
  // The scene (marks, frame, generation tracks) first; then what only the overlay shows.
  const SCENE = 18;
  const inputs = () => {
    const { props: p, model: m, collapsed: c, fold: f, width: w, win } = live.current;
    const [v0, v1] = viewOf();
    return [
      m,
      win[0],
      win[1],
      p.highlight,
      c,
      w,
      p.initiator,
      v0,
      v1,
      p.measured,
      p.flagged,
      f,
      p.lens,
      p.lensSubject,
      p.generations,
      p.steps,
      p.labels,
      p.trackHeight,
      p.magnify,
      p.cursor,
      p.selected,
      p.differs,
      p.matched,
    ];
  };
  const draw = useCallback(() => {
    const {
      props: p,
      model: m,
      collapsed: c,
      fold: f,
      width: w,
      toggleGroup: tg,
      unfold: uf,
      win,
    } = live.current;
    const [base, top] = [baseRef.current, topRef.current];
    if (!base || !top || w <= 0) return;
    const t0 = performance.now();
    const now = inputs();
    const view: [number, number] = [now[7] as number, now[8] as number];
    const sceneDrawn = stats.current && now.every((v, i) => i >= SCENE || v === drawn.current[i]);
    drawn.current = now;
    if (sceneDrawn && stats.current) {
      // Only the cursor or the selection moved: redraw the overlay, not the marks.
      const els = { base, top, canvas: canvasRef.current };
      renderInteraction(els, m, { ...p, highlight: p.highlight ?? NONE }, stats.current);
      recordDraw(performance.now() - t0, 'overlay', m.trace.version, m.trace.n);
      return;
    }
    stats.current = renderTimeline({ base, top, canvas: canvasRef.current }, m, {
      ...drawnState(p, win, w, c, f),
      dpr: (window.devicePixelRatio || 1) * place.current.k,
      view,
      previousMode: stats.current?.mode,
      onToggleGroup: tg,
      onUnfold: uf,
    });
    if (statusRef.current) {
      const said = describeStats(stats.current);
      statusRef.current.textContent = said || HINT;
      // An embed hides the hint (its reader did not come to operate the page).
      statusRef.current.toggleAttribute('data-hint', !said);
    }
    const st = stats.current;
    recordDraw(performance.now() - t0, st.mode, m.trace.version, m.trace.n, {
      svg: st.svgMarks,
      canvas: st.canvasRects,
      arrows: st.arrowMode === 'hidden' ? 0 : st.arrows,
    });
    p.onRendered?.();
  }, []);
  // A scheduled frame whose inputs all equal the last draw's skips it (`inputs` reads refs,
  // so the first render's closure stays current).
  const sceneChanged = useCallback(() => inputs().some((v, i) => v !== drawn.current[i]), []);
  const { schedule, drawNow } = useFrameDraw(draw, sceneChanged);

  const {
    view: store,
    cursor,
    selected,
    highlight,
    measured,
    flagged,
    differs,
    matched,
    lens,
    lensSubject,
    generations,
    labels,
    trackHeight,
    magnify,
  } = props;
  useEffect(() => {
    schedule();
  }, [
    model,
    cursor,
    selected,
    highlight,
    measured,
    flagged,
    differs,
    matched,
    width,
    collapsed,
    fold,
    lens,
    lensSubject,
    generations,
    labels,
    trackHeight,
    magnify,
    initiator,
    schedule,
  ]);
  // A theme change (the header's toggle, a link, the system's) repaints the canvas in the
  // new palette; SVG marks follow their CSS by themselves.
  useEffect(() => {
    const repaint = () => {
      drawn.current = [];
      schedule();
    };
    const root = document.documentElement;
    const observer = new MutationObserver(repaint);
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    const q = window.matchMedia?.('(prefers-color-scheme: dark)');
    q?.addEventListener('change', repaint);
    return () => {
      observer.disconnect();
      q?.removeEventListener('change', repaint);
    };
  }, [schedule]);
  // The window from the store: set by the app (a new run or step) or by the other timeline.
  useEffect(() => {
    live.current.win = store.get();
    schedule();
    return store.subscribe((w, from) => {
      if (from === live) return;
      live.current.win = w;
      schedule();
    });
  }, [store, schedule]);

  useEffect(() => {
    const box = boxRef.current;
    const top = topRef.current;
    if (!box || !top) return;
    const pos = () => live.current.model.pos;
    const plotBounds = (): [number, number] => {
      const { left, k } = placed();
      const [a, b] = stats.current?.scales.plot ?? [0, 1];
      return [left + a * k, left + b * k];
    };
    const fresh = () => (place.current.at = -Infinity);
    // A scroll moves the slice on screen: redraw the rows that come into view.
    const scrolled = () => {
      fresh();
      schedule();
    };
    const observer = new ResizeObserver(fresh);
    observer.observe(box);
    // The page growing or shrinking above the timeline moves it without a scroll.
    const pageObserver = new ResizeObserver(scrolled);
    pageObserver.observe(document.documentElement);
    window.addEventListener('scroll', scrolled, { capture: true, passive: true });
    window.addEventListener('resize', scrolled, { passive: true });
    box.addEventListener('pointerdown', fresh, { capture: true });
    const detach = attachInteractions(box, {
      plotBounds,
      getWindow: () => {
        const [a, b] = live.current.win;
        return [pos().toPos(a), pos().toPos(b)];
      },
      setWindow: ([a, b]) => {
        const ns: [number, number] = [pos().toNs(a), pos().toNs(b)];
        live.current.win = ns;
        drawNow();
        live.current.props.view.set(ns, live);
      },
      extent: () => {
        const e = live.current.props.fullExtent;
        return e ? [pos().toPos(e[0]), pos().toPos(e[1])] : pos().extent;
      },
      minSpan: () => (pos().spacing === 'event' ? 4 : 5),
      keyAnchor: () => {
        const c = live.current.props.cursor;
        return c === null ? null : pos().toPos(c);
      },
      escape: () => live.current.props.onSelect?.(null),
      click: (clientX, clientY, target) => {
        const p = live.current.props;
        const s = stats.current;
        const el = target instanceof Element ? target : null;
        if (!s || el?.closest('.group-toggle, .fold-toggle, .timeline-bar')) return;
        const mark = el?.closest('.mark[data-row]');
        if (mark) {
          p.onSelect?.(Number(mark.getAttribute('data-row')));
          return;
        }
        const [l, r] = plotBounds();
        const [a, b] = s.scales.x.domain();
        const at = a + ((clientX - l) / Math.max(1, r - l)) * (b - a);
        const hit = s.layout.rowAt((clientY - top.getBoundingClientRect().top) / placed().k);
        if (hit && hit.track >= 0 && (hit.row.type === 'cpu' || hit.row.type === 'aggregate')) {
          const tolerance = (3 * (b - a)) / Math.max(1, r - l);
          const m = live.current.model;
          const [c0, c1] =
            hit.row.type === 'cpu' ? [hit.row.cpu, hit.row.cpu] : [hit.row.first, hit.row.last];
          for (let cpu = c0; cpu <= c1; cpu++) {
            const row = hitTest(m.index.tracks[cpu * TRACKS + hit.track], at, tolerance);
            if (row >= 0) {
              p.onSelect?.(row);
              return;
            }
          }
        }
        p.onCursorChange?.(pos().toNs(at));
      },
    });
    return () => {
      detach();
      observer.disconnect();
      pageObserver.disconnect();
      window.removeEventListener('scroll', scrolled, { capture: true });
      window.removeEventListener('resize', scrolled);
      box.removeEventListener('pointerdown', fresh, { capture: true });
    };
  }, [drawNow, schedule, placed]);

  const exportAs = useCallback(async (format: 'svg' | 'png') => {
    const { props: p, model: m, collapsed: c, fold: f, width: w, win } = live.current;
    const text = p.exportText?.();
    const host = boxRef.current?.parentElement;
    if (!text || !host) return;
    const out = exportTimelineSvg(host, m, drawnState(p, win, w, c, f), text);
    if (format === 'svg') {
      download(new Blob([out.svg], { type: 'image/svg+xml' }), `${text.fileName}.svg`);
    } else {
      download(await svgToPng(out, text.link), `${text.fileName}.png`);
    }
  }, []);

  const name = `Per-CPU timeline${label ? ` ${label}` : ''}`;
  return (
    <div
      className={props.pending ? 'timeline pending' : 'timeline'}
      aria-busy={props.pending || undefined}
      ref={boxRef}
      tabIndex={0}
      role="group"
      aria-roledescription="timeline"
      aria-label={`${name}. ${HINT}; Esc clears the selection.`}
      data-spacing={spacing}
    >
      <div className="timeline-bar">
        {label && <span className="timeline-label">{label}</span>}
        <span className="timeline-status" ref={statusRef} />
        {props.exportText && <ExportButtons what={name} onExport={exportAs} />}
      </div>
      <div className="timeline-plot">
        <svg className="timeline-base" ref={baseRef} />
        <canvas className="timeline-canvas" ref={canvasRef} aria-hidden="true" />
        {/* A group, not an image: it holds buttons (group and fold toggles). */}
        <svg className="timeline-top" ref={topRef} role="group" aria-label={name} />
      </div>
    </div>
  );
}
