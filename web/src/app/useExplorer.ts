// The explorer's state: the A (and B) runs of the selected scenario, the window, cursor and
// selection every view shares, the guided step, playback, and the machine state at the cursor.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { extentOf, nextRow, prevRow } from '../model/events';
import { followWindow, frameWindow } from '../model/stepping';
import { useKeptStep } from './useKeptStep';
import { paddedWindow } from '../model/guide';
import { counterpartOfFlush, differingRows, matchFlushes } from '../model/flushMatch';
import { useKeptFlush } from './useKeptFlush';
import { differingFacts } from '../model/flushRows';
import { useRemoteMatch } from './useRemoteMatch';
import { isRecorded, type RecordedRun } from '../recording/asRun';
import type { RunResult } from '../sim/run';
import type { Spacing } from '../model/spacing';
import { checkAgainstRun } from './linkCheck';
import type { UrlState, ViewState } from './url';
import { useGuide, type SetUrl } from './useGuide';
import { usePlayback } from './usePlayback';
import { ranWith, useRun, type RunState } from './useRun';
import { useSnapshot } from './useSnapshot';
import { createWindowStore, useSettledWindow } from './windowStore';

const reducedMotion = () =>
  window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

export type Explorer = ReturnType<typeof useExplorer>;

/**
 * `text`: the scenario to run (undefined: unknown scenario; null: none yet); nothing runs outside
 * the explorer.
 * `linked`: the window, cursor and selection a link asks for, shown once its run is done
 * (`restore` asks again, for the browser's back and forward); `onIgnored` hears what of it the
 * run does not have.
 * `hold`: a link's own scenario is still unpacking. What is on screen stays, run from the state
 * before (tearing it down and drawing it again would cost more than the unpacking saved), but
 * is not the URL's: not fresh, so the link's window and selection wait for the new run.
 */
export function useExplorer(
  urlNow: UrlState,
  setUrl: SetUrl,
  textNow: string | null | undefined,
  linked: ViewState | null = null,
  onIgnored: (what: string[]) => void = () => {},
  hold = false,
) {
  const held = useRef({ url: urlNow, text: textNow });
  if (!hold) held.current = { url: urlNow, text: textNow };
  const { url, text } = held.current;
  const explore = url.view === 'explore';
  // An imported kernel recording takes A's place (the model then runs only as B).
  const [recording, setRecording] = useState<RecordedRun | null>(null);
  // null: no run wanted (another view, or no comparison); undefined: unknown scenario.
  // `view=counterexample`: both sides check every interleaving instead of one seeded run.
  const check = !!url.check;
  const runA = useRun(
    explore && !recording ? text : null,
    url.overrides,
    url.seed,
    url.step !== null ? url.step - 1 : undefined,
    check,
    url.remoteAbove ?? undefined,
  );
  // With a recording as A, A's settings (`set=`) have no run of their own: they are the model's,
  // which runs only as B, so B runs them with its own (`setB=`) after. Before, a link's `set=`
  // was dropped and B ran the scenario's own machine (128 CPUs for x86-madvise-touch).
  const overridesB = useMemo(
    () => (recording ? [...url.overrides, ...url.overridesB] : url.overridesB),
    [recording, url.overrides, url.overridesB],
  );
  const runB = useRun(
    explore && url.compare ? text : null,
    overridesB,
    url.seed,
    undefined,
    check,
    url.remoteAbove ?? undefined,
  );
  const a = recording ?? shownOf(runA.state);
  const b = url.compare ? shownOf(runB.state) : null;
  const fullExtent = useMemo<[number, number]>(
    () => (a ? extentOf(a.trace, ...(b ? [b.trace] : [])) : [0, 1]),
    [a, b],
  );

  const [view] = useState(() => createWindowStore());
  const logWindow = useSettledWindow(view); // the log follows once a zoom or pan rests
  const [cursor, setCursor] = useState<number | null>(null);
  const [selected, setSelectedA] = useState<number | null>(null);
  // B's selected row (A/B only); at most one of the two is set.
  const [selectedB, setSelectedB] = useState<number | null>(null);
  const setSelected = useCallback((row: number | null) => {
    setSelectedA(row);
    setSelectedB(null);
  }, []);
  const [spacing, setSpacing] = useState<'time' | 'event'>(linked?.spacing ?? 'time');
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1000);
  const [rendered, setRendered] = useState<ReadonlySet<number>>(new Set());
  const guide = useGuide(url, setUrl, a, fullExtent);
  // A recording has no machine state to show: only the model's runs can be re-run to a time.
  const snapshot = useSnapshot(
    runA.snapshot,
    cursor,
    recording ? null : (a?.trace.version ?? null),
  );

  // The cursor on a row selected or stepped to, and the window panned to it when it is out of
  // view (the window keeps its width).
  const extentRef = useRef(fullExtent);
  extentRef.current = fullExtent;
  const follow = useCallback(
    (t: number, dur: number) => {
      setCursor(t);
      view.set(followWindow(view.get(), t, dur, extentRef.current));
    },
    [view],
  );
  // A run kept in its worker is stepped there (useKeptStep.ts), and its rows' times asked of it.
  // Its answers land between renders: a key pressed before the next render steps on from the
  // row the last answer reached, not from the selection that render still shows.
  const stepFrom = useRef({ selected, cursor });
  stepFrom.current = { selected, cursor };
  const keptA = useKeptStep(
    a?.trace.remote ? a : null,
    (row, t, dur) => {
      stepFrom.current = { selected: row, cursor: t };
      setSelected(row);
      follow(t, dur);
    },
    () => setPlaying(false),
  );
  const keptB = useKeptStep(
    b?.trace.remote ? b : null,
    () => {},
    () => {},
  );

  // A new run, or a new step, shows the step's window (or the whole run) with nothing selected;
  // unless a link asked for more, which waits until the runs are those the URL names.
  // By value: a frame recomputed with the same window (a kept run's rows arriving) is no new
  // window to show.
  const [s0, s1] = guide.frame?.window ?? [NaN, NaN];
  const framed = guide.frame !== null;
  // A counterexample's last step is often the run's last row: padded, its badge is whole.
  const defaultWindow = useMemo<[number, number]>(
    () => (framed ? [s0, s1] : check ? paddedWindow(fullExtent) : fullExtent),
    [framed, s0, s1, check, fullExtent],
  );
  // A recording answers no request of the URL's: once loaded it is what A shows.
  const freshA =
    !hold && a !== null && (a === recording || ranWith(a, text, url.overrides, url.seed, check));
  const freshB =
    !hold && (!url.compare || (b !== null && ranWith(b, text, overridesB, url.seed, check)));
  const pending = useRef<ViewState | null>(linked);
  const [restores, setRestores] = useState(0);
  const restore = useCallback((v: ViewState) => {
    pending.current = v;
    setSpacing(v.spacing);
    setRestores((n) => n + 1);
  }, []);
  const ignoredRef = useRef(onIgnored);
  ignoredRef.current = onIgnored;
  const urlRef = useRef(url);
  urlRef.current = url;
  // What the effect below last showed, for which runs and step; `window` null: a link's own.
  const shown = useRef<{ key: string; window: [number, number] | null } | null>(null);
  useEffect(() => {
    if (!a || !freshA) return;
    const key = `${a.trace.version}|${b?.trace.version ?? '-'}|${urlRef.current.step}|${restores}`;
    const was = shown.current;
    if (was?.key === key && !pending.current) {
      // The same runs and step, framed anew: a kept run's worker has said how far the step's
      // waits reach. The window follows unless the reader (or a link) has moved it; the
      // selection stays.
      const w = view.get();
      if (was.window && w[0] === was.window[0] && w[1] === was.window[1]) {
        view.set(defaultWindow);
        shown.current = { key, window: defaultWindow };
      }
      return;
    }
    setPlaying(false);
    const want = pending.current;
    if (want && freshB) {
      pending.current = null;
      const extent = fullExtent;
      const { value, ignored } = checkAgainstRun(urlRef.current.step, want, {
        steps: a.info.steps.length,
        events: a.trace.remote?.rows ?? a.trace.n,
        eventsB: b ? (b.trace.remote?.rows ?? b.trace.n) : undefined,
        extent,
      });
      if (value.step !== urlRef.current.step)
        setUrl({ ...urlRef.current, step: value.step }, { replace: true });
      const w = value.view.window;
      view.set(w ? [Math.max(w[0], extent[0]), Math.min(w[1], extent[1])] : defaultWindow);
      const rowB = value.view.selectedB ?? null;
      setSelected(value.view.selected);
      if (rowB !== null) setSelectedB(rowB);
      setCursor(
        value.view.cursor ??
          (value.view.selected !== null
            ? (a.trace.time[value.view.selected] ?? null)
            : rowB !== null && b
              ? (b.trace.time[rowB] ?? null)
              : null),
      );
      // A run kept in its worker: the selected row's time is asked of the worker.
      const sel = value.view.selected;
      if (value.view.cursor === null && sel !== null && a.trace.remote)
        keptA.timeOf(sel, setCursor);
      if (ignored.length) ignoredRef.current(ignored);
      // A link without a window shows the step's, which a later frame may still widen.
      shown.current = { key, window: w ? null : defaultWindow };
      return;
    }
    view.set(defaultWindow);
    shown.current = { key, window: defaultWindow };
    setSelected(null);
    setCursor(null);
  }, [a, b, freshA, freshB, fullExtent, defaultWindow, view, restores, setUrl, setSelected, keptA]);

  /** Where the user looks, as a link writes it (null where it is the view's default). */
  const viewState = useCallback((): ViewState => {
    const w = view.get();
    const def = defaultWindow;
    const isDefault = Math.abs(w[0] - def[0]) < 0.05 && Math.abs(w[1] - def[1]) < 0.05;
    return { cursor, window: isDefault ? null : w, selected, selectedB, spacing };
  }, [view, defaultWindow, cursor, selected, selectedB, spacing]);

  // A flush chosen in the analysis: the window closes in on it, so its parts can be read. By
  // its time and length, which the analysis has for a run kept in its worker too.
  const frameSpan = useCallback(
    (t: number, dur: number) => view.set(frameWindow(view.get(), t, dur, extentRef.current)),
    [view],
  );

  // Selecting an event also puts the cursor on it, so the machine state shown is its moment.
  const selectRow = useCallback(
    (row: number | null) => {
      setSelected(row);
      if (row === null || !a) return;
      if (a.trace.remote) keptA.timeOf(row, follow);
      else if (row < a.trace.n) follow(a.trace.time[row], a.trace.dur[row]);
    },
    [a, setSelected, keptA, follow],
  );
  const selectRowB = useCallback(
    (row: number | null) => {
      setSelectedA(null);
      setSelectedB(row);
      if (row === null || !b) return;
      if (b.trace.remote) keptB.timeOf(row, follow);
      else if (row < b.trace.n) follow(b.trace.time[row], b.trace.dur[row]);
    },
    [b, keptB, follow],
  );
  // The two runs' flushes matched one to one, and where they differ (A/B only).
  // A run kept in its worker sends its flushes from there (useRemoteMatch.ts).
  const remote = !!(a?.trace.remote || b?.trace.remote);
  // A run kept in its worker is drawn in true time only: the switch and its key leave the
  // spacing alone then (so the link does not say spacing=event of a view drawn in time).
  const spacingUnavailable = remote
    ? 'A run kept in its worker is drawn in true time only: one step per event would need every row’s position on the page'
    : null;
  const setDrawnSpacing = useCallback(
    (s: Spacing | ((s: Spacing) => Spacing)) => {
      if (!remote) setSpacing(s);
    },
    [remote],
  );
  const localMatch = useMemo(
    () =>
      a && b && !remote
        ? matchFlushes(a.trace, b.trace, { byCpuOnly: isRecorded(a) || isRecorded(b) })
        : null,
    [a, b, remote],
  );
  const remoteMatch = useRemoteMatch(remote ? a : null, remote ? b : null);
  const match = remote ? remoteMatch : localMatch;
  const differing = useMemo(() => (match ? differingRows(match) : null), [match]);
  // The same flushes with their times and CPUs: what a run kept in its worker outlines them by.
  const differingFlushes = useMemo(() => (match ? differingFacts(match) : null), [match]);
  // The other run's flush matched with the selection's: a kept run's selected row's flush is
  // asked of its worker, a page-held run's read from the match.
  // Asked only in A/B, where there is a match to pair it in.
  const keptFlushA = useKeptFlush(match && a?.trace.remote ? a : null, selected);
  const keptFlushB = useKeptFlush(match && b?.trace.remote ? b : null, selectedB);
  const flushOfSelected = (side: 'A' | 'B', r: RunResult | null, row: number | null) => {
    if (!match || !r || row === null) return null;
    if (r.trace.remote) return side === 'A' ? keptFlushA : keptFlushB;
    return (side === 'A' ? match.flushOfA : match.flushOfB)[row] ?? -1;
  };
  const matchedFlushA =
    match && selectedB !== null
      ? counterpartOfFlush(match, 'B', flushOfSelected('B', b, selectedB))
      : null;
  const matchedFlushB =
    match && selected !== null
      ? counterpartOfFlush(match, 'A', flushOfSelected('A', a, selected))
      : null;
  const matchedA = matchedFlushA?.row ?? null;
  const matchedB = matchedFlushB?.row ?? null;
  const markRendered = useCallback((r: RunResult | null) => {
    if (r) setRendered((s) => (s.has(r.trace.version) ? s : new Set(s).add(r.trace.version)));
  }, []);
  const settled = (s: RunState, r: RunResult | null) =>
    s.status !== 'running' &&
    (s.status !== 'done' || (r !== null && rendered.has(r.trace.version)));
  const idle = settled(runA.state, a) && (!url.compare || settled(runB.state, b));

  // `queue`: a key or button press is taken after a kept run's answer still on its way; a
  // playback tick then is not.
  const stepBy = useCallback(
    (dir: 1 | -1, queue: boolean) => {
      if (!a) return false;
      if (a.trace.remote) {
        const from = stepFrom.current;
        return keptA.step(dir, from.selected, from.cursor, queue);
      }
      const t = cursor ?? (dir > 0 ? -1 : Infinity);
      const row = dir > 0 ? nextRow(a.trace, selected, t) : prevRow(a.trace, selected, t);
      if (row < 0) return false;
      setSelected(row);
      follow(a.trace.time[row], a.trace.dur[row]);
      return true;
    },
    [a, cursor, selected, setSelected, keptA, follow],
  );
  const step = useCallback((dir: 1 | -1) => stepBy(dir, true), [stepBy]);

  // On pausing (only then: a selection asked for meanwhile must still land), a kept run's step
  // still on its way lands nowhere, so the cursor rests where the reader saw it stop.
  const wasPlaying = useRef(playing);
  useEffect(() => {
    if (wasPlaying.current && !playing) keptA.stop();
    wasPlaying.current = playing;
  }, [playing, keptA]);

  const end = useMemo(() => (a ? extentOf(a.trace)[1] : 0), [a]);
  usePlayback(
    playing,
    rate,
    reducedMotion(),
    (dt) => {
      const t = Math.min(end, (cursor ?? 0) + dt);
      setCursor(t);
      if (t >= end) setPlaying(false);
      return t < end;
    },
    () => {
      const more = stepBy(1, false);
      if (!more) setPlaying(false);
      return more;
    },
  );

  const cancel = () => {
    if (runA.state.status !== 'running' && runB.state.status !== 'running') return false;
    runA.cancel();
    runB.cancel();
    return true;
  };

  return {
    recording,
    setRecording,
    runA,
    runB,
    a,
    b,
    /** The settings B runs with (with a recording as A, A's `set=` and then `setB=`). */
    overridesB,
    fullExtent,
    view,
    logWindow,
    cursor,
    setCursor,
    selected,
    setSelected,
    selectRow,
    selectedB,
    selectRowB,
    frameSpan,
    match,
    differing,
    differingFlushes,
    matchedA,
    matchedB,
    matchedFlushA,
    matchedFlushB,
    spacing,
    setSpacing: setDrawnSpacing,
    spacingUnavailable,
    playing,
    setPlaying,
    rate,
    setRate,
    guide,
    snapshot,
    step,
    end,
    idle,
    markRendered,
    cancel,
    /** Both runs are those the URL names (not a previous one still on screen). */
    fresh: freshA && freshB,
    /** A is the run the URL names (B may still be on its way). */
    freshA,
    restore,
    viewState,
  };
}

/**
 * The run a side shows: the finished one, or after a cancel or a refusal the previous one, so
 * the page keeps its picture and controls (RunProblem says which run it is).
 */
function shownOf(s: RunState): RunResult | null {
  if (s.status === 'done') return s.result;
  if (s.status === 'cancelled' || s.status === 'error') return s.previous ?? null;
  return null;
}
