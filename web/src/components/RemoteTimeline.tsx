// The timeline of a run that stays in its worker (Trace.remote, above 2 M rows): the page holds
// only what the view needs, asked of the worker on demand (workers/session.ts traceWindowOf):
// per-pixel aggregates of the window for every CPU, and the window's rows once they are few
// enough to draw. Each zoom or pan step redraws the last answers for the new window at once
// (viz/remote.ts) and asks for the new window's; latest wins, so a burst costs one answer.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useFrameDraw } from '../app/useFrameDraw';
import { useWidth } from '../app/useWidth';
import { markRemoteDrawn } from '../app/useRemoteRun';
import { traceWindowOf } from '../workers/session';
import type { LaneBuckets } from '../model/traceWindow';
import { toPalette } from '../viz/columns';
import { recordDraw } from '../viz/perf';
import { PRIORITY } from '../viz/overview';
import {
  paintAnswer,
  placeAnswer,
  remoteLayout,
  renderRemoteTop,
  type PaintedAnswer,
  type RemoteRows,
} from '../viz/remote';
import { renderRemoteHighlights, renderRemoteOverlay, type LitRows } from '../viz/remoteOverlay';
import { gensLayout, paintGens, renderGensTop } from '../viz/remoteGens';
import { renderRemoteDiffs } from '../viz/remoteDiffs';
import { renderRemoteMeasured } from '../viz/remoteMeasured';
import type { MeasuredEvents } from '../content/eventCsv';
import type { FlushFacts } from '../model/flushMatch';
import type { WindowGenerations } from '../model/windowGenerations';
import { download } from '../app/download';
import { exportRemoteSvg } from '../viz/exportRemote';
import { svgToPng, type ExportText } from '../viz/exportTimeline';
import { ExportButtons } from './ExportButtons';
import type { LensInterval } from '../model/lens';
import type { WindowArrow } from '../model/windowTrace';
import { attachInteractions } from '../viz/zoom';
import type { WindowStore } from '../app/windowStore';
import type { Trace } from '../trace/trace';
import '../viz/timeline.css';

/** Rows the page asks for and draws as marks: fewer in the window than this, else pixels. */
export const REMOTE_ROW_LIMIT = 400;
/** Most IPI and ack arrows drawn (SVG lines); more in the window: none, as the cells say. */
export const REMOTE_ARROW_LIMIT = 600;
/** Least time between two questions to the worker, in ms. */
const ASK_MS = 80;
const HINT = 'Ctrl+wheel or W/S zoom · drag or A/D pan · 0 reset';

/** The local timeline's props (Timeline.tsx) that a remote run's timeline honours. */
export interface RemoteTimelineProps {
  trace: Trace;
  view: WindowStore;
  cursor: number | null;
  onCursorChange?: (t: number) => void;
  selected: number | null;
  onSelect?: (row: number | null) => void;
  label?: string;
  fullExtent?: [number, number];
  onRendered?: () => void;
  /** Title, caption and state link for an export, read when the user exports; none: no export. */
  exportText?: () => ExportText & { fileName: string };
  /** The latency lens is on: its intervals in the window are asked of the worker. */
  lensAsk?: { kinds: readonly string[]; contextSwitchNs: number } | null;
  /** Brackets the page has already (a flush's parts chosen in the analysis). */
  lens?: readonly LensInterval[] | null;
  /** A guided step's highlighted rows, with their columns as the worker picked them. */
  lit?: LitRows | null;
  /** A guided step's subject CPUs: the other strips are veiled. */
  focus?: readonly number[] | null;
  /** Each mm's tlb_gen chart under the strips, asked of the worker (default off). */
  generations?: boolean;
  /** A/B: this run's flushes that differ from their match (from the worker's flush list). */
  differFlushes?: readonly FlushFacts[] | null;
  /** A/B: this run's flush matched with the other run's selection. */
  matchedFlush?: FlushFacts | null;
  /** Per-event measurements drawn over their CPU's strip (viz/remoteMeasured.ts). */
  measured?: MeasuredEvents | null;
}

interface Live {
  props: RemoteTimelineProps;
  win: [number, number];
  width: number;
  buckets: LaneBuckets | null;
  painted: PaintedAnswer | null;
  /** The rows of the window they were asked for (null: too many, or not asked yet). */
  rows: (RemoteRows & { t0: number; t1: number; total: number }) | null;
  rendered: boolean;
  /** The lens's intervals in the window asked for last; null: none, or too wide to read. */
  lens: { t0: number; t1: number; intervals: LensInterval[] | null } | null;
  /** The window's arrows, when few enough to draw. */
  arrows: WindowArrow[] | null;
  /** The tlb_gen charts asked for last, painted; `note` why there are none. */
  gens: { mms: WindowGenerations[]; painted: PaintedAnswer; note: string } | null;
}

/** The rows of `r` touching [t0, t1] (after a pan, the last answer's edges are off screen). */
function rowsIn(r: Live['rows'], [t0, t1]: [number, number]): RemoteRows | null {
  if (!r) return null;
  const keep: number[] = [];
  for (let j = 0; j < r.rows.length; j++) {
    const s = r.columns.time[j];
    if (s <= t1 && s + r.columns.dur[j] >= t0) keep.push(j);
  }
  if (keep.length === r.rows.length) return r;
  const pick = <T extends ArrayLike<number> & { constructor: unknown }>(a: T): T => {
    const o = new (a.constructor as new (n: number) => T & { [i: number]: number })(keep.length);
    keep.forEach((j, m) => (o[m] = a[j]));
    return o;
  };
  const c = r.columns;
  return {
    rows: pick(r.rows),
    columns: {
      time: pick(c.time),
      dur: pick(c.dur),
      cpu: pick(c.cpu),
      kind: pick(c.kind),
      mm: pick(c.mm),
      asid: pick(c.asid),
      gen: pick(c.gen),
      addr: pick(c.addr),
      arg: pick(c.arg),
      parent: pick(c.parent),
    },
  };
}

export function RemoteTimeline(props: RemoteTimelineProps) {
  const { trace, label } = props;
  const client = useMemo(() => traceWindowOf(trace), [trace]);
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const clipRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<SVGSVGElement>(null);
  const statusRef = useRef<HTMLSpanElement>(null);
  const gensCanvasRef = useRef<HTMLCanvasElement>(null);
  const gensClipRef = useRef<HTMLDivElement>(null);
  const gensTopRef = useRef<SVGSVGElement>(null);
  const gensNoteRef = useRef<HTMLParagraphElement>(null);
  const width = useWidth(boxRef);
  const layout = useMemo(() => remoteLayout(trace.cpus, width), [trace.cpus, width]);

  const live = useRef<Live>({
    props,
    win: props.view.get(),
    width,
    buckets: null,
    painted: null,
    rows: null,
    rendered: false,
    lens: null,
    arrows: null,
    gens: null,
  });
  live.current.props = props;
  live.current.width = width;

  // The theme's colours, read once per theme: reading computed style after a frame's changes
  // forces a style recalculation, which every answer would otherwise pay.
  const palette = useRef<((name: string) => string) | null>(null);
  const recolour = useCallback(() => {
    const b = live.current.buckets;
    const box = boxRef.current;
    if (!b || !box) return;
    const strip = remoteLayout(b.cpus, 0).strip;
    const canvas = canvasRef.current ?? undefined;
    live.current.painted = paintAnswer(b, strip, (palette.current ??= toPalette(box)), canvas);
  }, []);

  const draw = useCallback(() => {
    const { props: p, win, painted, rows } = live.current;
    const canvas = canvasRef.current;
    const clip = clipRef.current;
    const top = topRef.current;
    const lay = remoteLayout(p.trace.cpus, live.current.width);
    if (!canvas || !clip || !top || lay.width <= 0) return;
    const t0 = performance.now();
    placeAnswer(canvas, clip, lay, win, painted);
    const shown = rowsIn(rows, win);
    const marks = renderRemoteTop(top, lay, win, shown, p.cursor, p.selected);
    const lens = p.lensAsk ? live.current.lens : null;
    // A flush chosen in the analysis comes with its parts as brackets (props.lens) beside the
    // lens's intervals the worker sends.
    const brackets = p.lens?.length ? p.lens : null;
    const extra = renderRemoteOverlay(
      top,
      lay,
      win,
      brackets ? [...(lens?.intervals ?? []), ...brackets] : (lens?.intervals ?? null),
      shown ? live.current.arrows : null,
      p.selected,
    );
    const lit = renderRemoteHighlights(top, lay, win, p.lit ?? null, p.focus ?? null);
    const diffs = renderRemoteDiffs(top, lay, win, p.differFlushes ?? null, p.matchedFlush ?? null);
    renderRemoteMeasured(top, lay, win, p.measured ?? null);
    const gens = p.generations ? live.current.gens : null;
    const [gCanvas, gClip, gTop] = [gensCanvasRef.current, gensClipRef.current, gensTopRef.current];
    if (gens && gCanvas && gClip && gTop) {
      const h = renderGensTop(gTop, lay, win, gens.mms);
      placeAnswer(gCanvas, gClip, lay, win, gens.mms.length ? gens.painted : null, h);
      const box = gClip.parentElement;
      if (box && box.style.height !== `${h}px`) box.style.height = `${h}px`;
    }
    if (gensNoteRef.current) {
      const note = gens?.note ?? '';
      if (gensNoteRef.current.textContent !== note) gensNoteRef.current.textContent = note;
    }
    if (statusRef.current) {
      const n = (p.trace.remote?.rows ?? 0).toLocaleString('en-US');
      const litText = p.lit?.rows.length
        ? ` · ${lit} of the step's ${p.lit.rows.length} rows outlined`
        : '';
      const diffText = p.differFlushes
        ? ` · ${diffs} flush${diffs === 1 ? '' : 'es'} that differ${diffs === 1 ? 's' : ''} outlined`
        : '';
      const lensText = !lens
        ? ''
        : lens.intervals
          ? ` · ${extra.lens.toLocaleString('en-US')} lens wait${extra.lens === 1 ? '' : 's'}`
          : ' · zoom in for the lens';
      const text = shown
        ? `${marks.toLocaleString('en-US')} of ${n} rows in this window${extra.arrows ? ` · ${extra.arrows} arrows` : ''}${lensText}${litText}${diffText}`
        : `${n} rows kept in the worker; each pixel column shows what falls in it · zoom in for the rows${lensText}${litText}${diffText}`;
      // Written only when it changes: a text change costs the page a layout.
      if (statusRef.current.textContent !== text) statusRef.current.textContent = text;
    }
    if (!painted) return;
    recordDraw(
      performance.now() - t0,
      shown ? 'svg' : 'canvas',
      p.trace.version,
      p.trace.remote?.rows ?? 0,
      {
        svg: marks,
        canvas: 0,
        arrows: 0,
      },
    );
    if (!live.current.rendered) {
      live.current.rendered = true;
      markRemoteDrawn(p.trace);
      p.onRendered?.();
    }
  }, []);

  const { schedule, drawNow } = useFrameDraw(draw);

  // Asks the worker for the window on screen. One question of each kind in flight at a time,
  // and at most one per ASK_MS: on two cores the worker's answers share the CPU with the
  // page's frames, and meanwhile each frame stretches the last answer onto the new window.
  const asking = useRef({ inFlight: 0, again: false, last: -Infinity, timer: 0 });
  const ask = useCallback(() => {
    const a = asking.current;
    if (!client || live.current.width <= 0) return;
    if (a.inFlight || a.timer) {
      a.again = true;
      return;
    }
    const wait = a.last + ASK_MS - performance.now();
    if (wait > 0) {
      a.timer = window.setTimeout(() => {
        a.timer = 0;
        ask();
      }, wait);
      return;
    }
    a.last = performance.now();
    a.again = false;
    const [t0, t1] = live.current.win;
    const lay = remoteLayout(live.current.props.trace.cpus, live.current.width);
    const w = Math.max(1, Math.round(lay.plot[1] - lay.plot[0]));
    const settled = () => {
      if (--a.inFlight === 0 && a.again) ask();
    };
    const lensAsk = live.current.props.lensAsk;
    const gensAsk = !!live.current.props.generations;
    a.inFlight = 2 + (lensAsk ? 1 : 0) + (gensAsk ? 1 : 0);
    if (gensAsk)
      client
        .generations(t0, t1, w)
        .then((g) => {
          if (!g) return;
          const canvas = gensCanvasRef.current ?? document.createElement('canvas');
          const mms = g.mms ?? [];
          const pal = (palette.current ??= toPalette(boxRef.current));
          live.current.gens = {
            mms,
            painted: paintGens(mms, t0, t1, w, pal, canvas),
            note: g.mms
              ? g.mms.length
                ? ''
                : 'No tlb_gen charts: no mm of this run increments its tlb_gen.'
              : `No tlb_gen charts: ${g.note}.`,
          };
          schedule();
        })
        .catch(() => {})
        .finally(settled);
    if (lensAsk)
      client
        .lens(t0, t1, lensAsk.kinds, lensAsk.contextSwitchNs)
        .then((l) => {
          if (!l) return;
          live.current.lens = { t0, t1, intervals: l.intervals };
          schedule();
        })
        .catch(() => {})
        .finally(settled);
    client
      .lanes(t0, t1, w, PRIORITY)
      .then((b) => {
        if (!b) return;
        live.current.buckets = b;
        recolour();
        schedule();
      })
      .catch(() => {}) // the run was replaced: its timeline is going away
      .finally(settled);
    client
      .rows(t0, t1, REMOTE_ROW_LIMIT)
      .then((r) => {
        if (!r) return;
        const few = r.total >= 0 && r.total <= REMOTE_ROW_LIMIT;
        live.current.rows = few ? { ...r, t0, t1, total: r.total } : null;
        schedule();
        // Arrows are drawn with the rows only: asked once the window's rows are few.
        if (!few) return;
        return client.arrows(t0, t1, REMOTE_ARROW_LIMIT).then((x) => {
          if (!x) return;
          live.current.arrows = x.arrows;
          schedule();
        });
      })
      .catch(() => {})
      .finally(settled);
  }, [client, recolour, schedule]);
  useEffect(() => () => clearTimeout(asking.current.timer), []);

  const { view: store, cursor, selected } = props;
  useEffect(() => {
    live.current.win = store.get();
    ask();
    schedule();
    return store.subscribe((w, from) => {
      if (from === live) return;
      live.current.win = w;
      ask();
      schedule();
    });
  }, [store, ask, schedule]);
  useEffect(() => {
    ask();
    schedule();
  }, [width, ask, schedule]);
  const { lit, focus, generations, differFlushes, matchedFlush, measured, lens } = props;
  useEffect(
    () => schedule(),
    [cursor, selected, lit, focus, differFlushes, matchedFlush, measured, lens, schedule],
  );
  useEffect(() => {
    live.current.gens = null;
    if (generations) ask();
    schedule();
  }, [generations, ask, schedule]);
  const lensKey = props.lensAsk
    ? `${props.lensAsk.kinds.join()}:${props.lensAsk.contextSwitchNs}`
    : '';
  useEffect(() => {
    live.current.lens = null;
    if (lensKey) ask();
    schedule();
  }, [lensKey, ask, schedule]);
  // A theme change repaints the cells in the new palette.
  useEffect(() => {
    const repaint = () => {
      palette.current = null;
      recolour();
      schedule();
    };
    const observer = new MutationObserver(repaint);
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    });
    // Following the system's theme, the page has no attribute to watch.
    const system = window.matchMedia?.('(prefers-color-scheme: dark)');
    system?.addEventListener('change', repaint);
    return () => {
      observer.disconnect();
      system?.removeEventListener('change', repaint);
    };
  }, [recolour, schedule]);

  useEffect(() => {
    const box = boxRef.current;
    const top = topRef.current;
    if (!box || !top) return;
    // Where the plot is on screen, read at most every 250 ms (or after a scroll or resize):
    // reading it forces a layout of whatever the last frame changed, which a wheel step
    // would pay for every time.
    const place = { at: -Infinity, left: 0 };
    const fresh = () => (place.at = -Infinity);
    const plotBounds = (): [number, number] => {
      const now = performance.now();
      if (now - place.at > 250) place.left = top.getBoundingClientRect().left;
      place.at = now;
      const lay = remoteLayout(live.current.props.trace.cpus, live.current.width);
      return [place.left + lay.plot[0], place.left + lay.plot[1]];
    };
    window.addEventListener('scroll', fresh, { capture: true, passive: true });
    window.addEventListener('resize', fresh, { passive: true });
    const extent = (): [number, number] =>
      live.current.props.fullExtent ?? [0, live.current.props.trace.remote?.end ?? 1];
    const detach = attachInteractions(box, {
      plotBounds,
      getWindow: () => live.current.win,
      setWindow: (w) => {
        live.current.win = w;
        drawNow();
        live.current.props.view.set(w, live);
        ask();
      },
      extent,
      minSpan: () => 5,
      keyAnchor: () => live.current.props.cursor,
      escape: () => live.current.props.onSelect?.(null),
      click: (clientX, _clientY, target) => {
        const p = live.current.props;
        const el = target instanceof Element ? target : null;
        if (el?.closest('.timeline-bar')) return;
        const mark = el?.closest('.mark[data-row]');
        if (mark) {
          p.onSelect?.(Number(mark.getAttribute('data-row')));
          return;
        }
        const [l, r] = plotBounds();
        const [a, b] = live.current.win;
        p.onCursorChange?.(a + ((clientX - l) / Math.max(1, r - l)) * (b - a));
      },
    });
    return () => {
      detach();
      window.removeEventListener('scroll', fresh, { capture: true });
      window.removeEventListener('resize', fresh);
    };
  }, [ask, drawNow]);

  // What the screen shows: the window's cells and whatever the top layer draws over them.
  const exportAs = useCallback(async (format: 'svg' | 'png') => {
    const { props: p, win, painted, buckets, rows } = live.current;
    const text = p.exportText?.();
    const box = boxRef.current;
    const top = topRef.current;
    if (!text || !box || !top) return;
    const n = (p.trace.remote?.rows ?? 0).toLocaleString('en-US');
    const inWin = rowsIn(rows, win);
    const shown = inWin?.rows.length ?? 0;
    const caption = `${text.caption} Drawn as: per-pixel cells of a run of ${n} rows kept in the simulator's worker${shown ? `, and the window's ${shown} rows as marks` : ''}.`;
    const lay = remoteLayout(p.trace.cpus, live.current.width);
    const gens = p.generations ? live.current.gens : null;
    const gensTop = gensTopRef.current;
    const gensPart =
      gens && gensTop && gens.mms.length
        ? { top: gensTop, painted: gens.painted, height: gensLayout(gens.mms).height }
        : null;
    const out = exportRemoteSvg(
      box,
      top,
      lay,
      win,
      painted,
      buckets,
      inWin?.columns.kind ?? [],
      { ...text, caption: gens?.note ? `${caption} ${gens.note}` : caption },
      gensPart,
    );
    if (format === 'svg') {
      download(new Blob([out.svg], { type: 'image/svg+xml' }), `${text.fileName}.svg`);
    } else {
      download(await svgToPng(out, text.link), `${text.fileName}.png`);
    }
  }, []);

  const name = `Per-CPU timeline${label ? ` ${label}` : ''}`;
  return (
    <div
      className="timeline remote"
      ref={boxRef}
      tabIndex={0}
      role="group"
      aria-roledescription="timeline"
      aria-label={`${name}. ${HINT}; Esc clears the selection.`}
      data-spacing="time"
    >
      <div className="timeline-bar">
        {label && <span className="timeline-label">{label}</span>}
        <span className="timeline-status" ref={statusRef} />
        <span className="timeline-hint"> · {HINT}</span>
        {props.exportText && <ExportButtons what={name} onExport={exportAs} />}
      </div>
      <div className="timeline-plot" style={{ height: layout.height }}>
        <div className="remote-cells" ref={clipRef}>
          <canvas className="timeline-canvas" ref={canvasRef} aria-hidden="true" />
        </div>
        <svg className="timeline-top" ref={topRef} role="group" aria-label={name} />
      </div>
      {props.generations && (
        <>
          <div className="remote-gens" style={{ height: 0 }}>
            <svg ref={gensTopRef} role="img" aria-label="tlb_gen charts" />
            <div className="remote-cells" ref={gensClipRef}>
              <canvas ref={gensCanvasRef} aria-hidden="true" />
            </div>
          </div>
          <p className="muted remote-gens-note" ref={gensNoteRef} />
        </>
      )}
    </div>
  );
}
