// The explorer page: settings in the sidebar; narration, legend, transport, the A (and B)
// timelines, the summary or comparison, the inspector, event log and machine state.
import { useMemo, useRef, useState, type CSSProperties } from 'react';
import type { CounterexampleView } from '../app/useCounterexample';
import type { Explorer } from '../app/useExplorer';
import type { MeasuredEvents } from '../content/eventCsv';
import type { UrlState } from '../app/url';
import { initiatorOf } from '../model/ipis';
import { flushBrackets } from '../model/flushBrackets';
import type { FlushBreakdown } from '../model/flushBreakdown';
import { LENS_KINDS, lensIntervals, type LensInterval } from '../model/lens';
import { isRecorded } from '../recording/asRun';
import { titleForRun } from '../model/runWords';
import { fileNameOf } from '../app/download';
import { formatNs } from '../viz/scales';
import type { RunResult } from '../sim/run';
import { KERNELS } from '../app/kernels';
import { chosenKernel, workloadOf } from '../model/kernelHistory';
import { useKernelHistory } from '../app/useKernelHistory';
import { stretchedLanes } from './share/squeeze';
import { useTalkFit } from './useTalkFit';
import { useGuideB } from '../app/useRemoteGuide';
import { CheckPanel } from './CheckPanel';
import { CompareSummary } from './CompareSummary';
import { Controls } from './Controls';
import { DetailsPopover } from './DetailsPopover';
import { Distribution } from './Distribution';
import { ErrorBoundary } from './ErrorBoundary';
import { EventLog } from './EventLog';
import { FlushAnalysisPanel } from './FlushAnalysisPanel';
import { FlushMatches, MatchNote } from './FlushMatches';
import { Inspector } from './Inspector';
import { KernelHistory } from './KernelHistory';
import { Legend } from './Legend';
import { MeasuredEventsFile } from './MeasuredEventsFile';
import { takeHandedEvents } from '../content/eventHandoff';
import { MeasuredTable, Narration } from './Narration';
import { RecordingBeside } from './RecordingBeside';
import { PerfettoButton } from './PerfettoButton';
import { Prose } from './Prose';
import { RecordedRow } from './RecordedRow';
import { RecordingFile } from './RecordingFile';
import { RecordingSummary } from './RecordingSummary';
import { ModelRecording } from './ModelRecording';
import { RunProblem } from './RunProblem';
import { RunStatus } from './RunStatus';
import { ScenarioFile } from './ScenarioFile';
import { SettingsTabs } from './SettingsTabs';
import { useTooLargeToShare } from '../app/linkSource';
import { StateView } from './StateView';
import { SummaryPanel } from './SummaryPanel';
import { Timeline } from './Timeline';
import { Transport } from './Transport';
import { ViewSwitch } from './ViewSwitch';
import { asidLabels, namesAsids } from '../model/asidLabels';

const NO_LENS: readonly string[] = [];

interface Props {
  x: Explorer;
  url: UrlState;
  onUrl: (u: UrlState) => void;
  fileName: string;
  /** The scenario's text (the kernel history replays it). */
  text: string | undefined;
  ownFileName: string | null;
  onOwnFile: (f: { name: string; text: string } | null) => void;
  /** The settings sidebar: shown or not (app/sidebar.ts). */
  sidebar: { open: boolean; toggle: () => void };
  /** The counterexample of `view=counterexample` (app/useCounterexample.ts). */
  cx: CounterexampleView;
}

export function ExplorerView(props: Props) {
  const { x, url, onUrl, fileName, text, ownFileName, onOwnFile, sidebar, cx } = props;
  const unshareable = useTooLargeToShare(url.custom?.text ?? null);
  const { a, b, guide } = x;
  // A per-event CSV handed over from the Data view opens on the timeline at once.
  const [measured, setMeasured] = useState<MeasuredEvents | null>(takeHandedEvents);
  // The latency lens: on by default in a step that points at its intervals; the reader's
  // choice holds until the step changes.
  const lensKey = `${url.scenario}#${guide.index}`;
  const [lensPick, setLensPick] = useState<{ key: string; on: boolean } | null>(null);
  const stepLens = guide.step?.lens ?? NO_LENS;
  const lensOn = lensPick?.key === lensKey ? lensPick.on : stepLens.length > 0;
  const lensKinds = stepLens.length ? stepLens : LENS_KINDS;
  const lensOf = (r: RunResult | null) =>
    r && lensOn && !isRecorded(r) && !r.trace.remote
      ? lensIntervals(r.trace, lensKinds, r.info.costs.context_switch_ns ?? 0)
      : null;
  // A run kept in its worker: the timeline asks the worker for the window's intervals.
  const lensAskOf = (r: RunResult | null) =>
    r && lensOn && !isRecorded(r) && r.trace.remote
      ? { kinds: lensKinds, contextSwitchNs: r.info.costs.context_switch_ns ?? 0 }
      : null;
  const lensAskA = useMemo(() => lensAskOf(a), [a, lensOn, lensKinds]);
  const lensAskB = useMemo(() => lensAskOf(b), [b, lensOn, lensKinds]);
  const lensA = useMemo(() => lensOf(a), [a, lensOn, lensKinds]);
  const lensB = useMemo(() => lensOf(b), [b, lensOn, lensKinds]);
  const lensSubject = useMemo(() => new Set(stepLens), [stepLens]);
  // A flush chosen in the analysis: its parts bracketed under the lanes while it is selected.
  const [chosen, setChosen] = useState<{
    side: 'A' | 'B';
    trace: RunResult['trace'];
    flush: FlushBreakdown;
  } | null>(null);
  const bracketed = (
    side: 'A' | 'B',
    r: RunResult | null,
    selected: number | null,
    lens: readonly LensInterval[] | null,
  ) =>
    chosen?.side === side && r?.trace === chosen.trace && selected === chosen.flush.row
      ? [...(lens ?? []), ...flushBrackets(chosen.flush, lens ?? [])]
      : lens;
  const drawnLensA = useMemo(
    () => bracketed('A', a, x.selected, lensA),
    [chosen, a, x.selected, lensA],
  );
  const drawnLensB = useMemo(
    () => bracketed('B', b, x.selectedB, lensB),
    [chosen, b, x.selectedB, lensB],
  );
  // A comparison step points at the same kinds on both sides: B's marks are highlighted too.
  const guideB = useGuideB(guide.step, b, guide.highlight, x.fullExtent);
  // A step that asks the reader to follow ASIDs labels its highlighted switches with them.
  const asidStep = !!guide.step && namesAsids(guide.step);
  const labelsA = useMemo(
    () => (asidStep && a && !a.trace.remote ? asidLabels(a.trace, guide.highlight) : undefined),
    [asidStep, a, guide.highlight],
  );
  const labelsB = useMemo(
    () =>
      asidStep && b && !b.trace.remote ? asidLabels(b.trace, guideB.highlight ?? []) : undefined,
    [asidStep, b, guideB.highlight],
  );
  // The tlb_gen charts: off by default when comparing (A's and B's lanes both need the first
  // screen) unless the step points at generations; the reader's choice holds for the step.
  const [gensPick, setGensPick] = useState<{ key: string; on: boolean } | null>(null);
  // A run kept in its worker builds the charts' model there when asked (a pass over the run
  // and up to tens of MB): off until the reader turns them on.
  const gensOn =
    gensPick?.key === lensKey
      ? gensPick.on
      : !a?.trace.remote &&
        (!(guide.step ? guide.step.compare : url.compare) ||
          !!guide.step?.highlight.includes('TlbGenIncremented'));
  // The kernel history: open while the A settings name a kernel, unless the reader closed it;
  // the reader's choice holds until the kernel changes.
  const kernelAt = chosenKernel(KERNELS, url.overrides)?.index ?? null;
  const [historyPick, setHistoryPick] = useState<{ at: number | null; on: boolean } | null>(null);
  const historyOn = historyPick?.at === kernelAt ? historyPick.on : kernelAt !== null;
  // While A re-runs (a slider move) the last run's architecture holds, so the table's runs
  // in flight go on.
  const x86Ref = useRef(false);
  if (a) x86Ref.current = !isRecorded(a) && a.info.arch === 'x86';
  const canHistory = x86Ref.current && text !== undefined;
  const workload = useMemo(() => workloadOf(KERNELS, url.overrides), [url.overrides]);
  const history = useKernelHistory(
    KERNELS,
    canHistory && historyOn ? text : null,
    workload,
    url.seed,
  );
  // The details beside the timeline: open from a click on an event until closed or the
  // selection is cleared; `click` is where, for a long span's details to sit by the point.
  const [figure, setFigure] = useState<HTMLDivElement | null>(null);
  const pointer = useRef<{ x: number; y: number; scrollX: number; scrollY: number } | null>(null);
  const [beside, setBeside] = useState<{ click: typeof pointer.current } | null>(null);
  // Talk mode draws the timelines as large as the screen's height allows (components/talkFit.ts).
  const talk = useTalkFit(
    figure,
    !!url.talk,
    `${guide.index}|${url.compare}|${url.scenario}`,
    stretchedLanes(a?.trace.cpus ?? 1, guide.frame?.cpus, url.compare ? 2 : 1),
  );
  const selectOn = (side: 'A' | 'B') => (row: number | null) => {
    (side === 'A' ? x.selectRow : x.selectRowB)(row);
    setBeside(row === null ? null : { click: pointer.current });
  };
  // A choice in the log, the flush table or the summary, down the page, shows its event in the
  // inspector there: details beside the timeline, off screen, would be seen by nobody.
  const fromBelow =
    <T extends unknown[]>(select: (row: number, ...more: T) => void) =>
    (row: number, ...more: T): void => {
      setBeside(null);
      select(row, ...more);
    };
  // A flush picked in the analysis is selected, framed and its parts bracketed: the reader came
  // to read its parts.
  const frameFlush = (side: 'A' | 'B') => (row: number, flush: FlushBreakdown) => {
    const run = side === 'A' ? a : b;
    (side === 'A' ? x.selectRow : x.selectRowB)(row);
    x.frameSpan(flush.start, flush.latency);
    if (run) setChosen({ side, trace: run.trace, flush });
  };
  // Stepping moves the details with the selection, to the new event's outline.
  const step = (by: 1 | -1) => {
    setBeside((d) => d && { click: null });
    x.step(by);
  };
  // What an exported picture says about itself; read at export time (the link is the page's
  // address then).
  const exportText = (r: RunResult, side: 'A' | 'B', overrides: readonly string[]) => () => {
    const machine =
      typeof r.summary.machine === 'string' && r.summary.machine ? r.summary.machine : 'default';
    const [w0, w1] = x.view.get();
    const settings = overrides.join(' ') || 'settings as the scenario says';
    const step = guide.index !== null ? guide.steps[guide.index] : null;
    const parts = [
      step && `Step ${(guide.index ?? 0) + 1} of ${guide.steps.length}: ${step.title}`,
      url.compare && `Side ${side}`,
    ].filter(Boolean);
    return {
      title: r.title,
      subtitle: parts.join(' · ') || undefined,
      caption: `Predicted by the tlbscope model with the ${machine} machine preset, not measured. ${fileName}, seed ${url.seed}, ${settings}; window ${formatNs(w0)} to ${formatNs(w1)}.`,
      link: window.location.href,
      fileName: fileNameOf(
        'tlbscope',
        url.scenario ?? ownFileName?.replace(/\.toml$/, ''),
        step && `step${(guide.index ?? 0) + 1}`,
        url.compare && side,
      ),
    };
  };
  // Both timelines share window, cursor and spacing; each has its own selection, outlines its
  // flushes that differ from the other run's, and the match of the other run's selection.
  // A guided step highlights A's rows (and, comparing, the same kinds on B).
  const timeline = (r: RunResult, side: 'A' | 'B', overrides: readonly string[]) => (
    <ErrorBoundary label={`timeline ${side}`} resetKey={r.trace.version}>
      <Timeline
        trace={r.trace}
        label={
          url.compare
            ? `${side}: ${isRecorded(r) ? r.title : overrides.join(' ') || 'as the scenario says'}`
            : undefined
        }
        view={x.view}
        fullExtent={x.fullExtent}
        cursor={x.cursor}
        onCursorChange={x.setCursor}
        selected={side === 'A' ? x.selected : x.selectedB}
        onSelect={selectOn(side)}
        highlight={side === 'A' ? (cx.highlight ?? guide.highlight) : guideB.highlight}
        lit={side === 'A' ? (cx.highlight ? null : guide.lit) : guideB.lit}
        steps={side === 'A' ? cx.marks : null}
        labels={side === 'A' ? labelsA : labelsB}
        differs={x.differing ? (side === 'A' ? x.differing.a : x.differing.b) : undefined}
        differFlushes={
          r.trace.remote && x.differingFlushes
            ? x.differingFlushes[side === 'A' ? 'a' : 'b']
            : undefined
        }
        matched={side === 'A' ? x.matchedA : x.matchedB}
        matchedFlush={r.trace.remote ? (side === 'A' ? x.matchedFlushA : x.matchedFlushB) : null}
        focus={guide.frame?.cpus}
        lens={side === 'A' ? drawnLensA : drawnLensB}
        lensAsk={side === 'A' ? lensAskA : lensAskB}
        generations={gensOn}
        lensSubject={side === 'A' ? lensSubject : undefined}
        magnify={guide.step?.magnify}
        trackHeight={url.talk ? talk.track : undefined}
        spacing={x.spacing}
        initiator={isRecorded(r) ? r.recording.initiator : initiatorOf(r.trace)}
        onRendered={() => x.markRendered(r)}
        measured={side === 'A' ? measured : null}
        flagged={isRecorded(r) ? r.recording.flagged : null}
        exportText={exportText(r, side, overrides)}
      />
    </ErrorBoundary>
  );
  const checkPanel = (
    <ErrorBoundary label="the interleaving check" resetKey={a?.trace.version}>
      <CheckPanel
        url={url}
        onUrl={onUrl}
        a={a}
        stateA={x.runA.state}
        stateB={x.runB.state}
        view={cx}
        snapshot={x.snapshot}
        compact={guide.index !== null}
        brief={!!url.compare}
      />
    </ErrorBoundary>
  );
  // The selected event's inspector: beside the event on the timeline after a click there
  // (DetailsPopover.tsx), else in its place under the summary.
  const inspectorOf = (a: RunResult) => (
    <>
      {b && x.selectedB !== null ? (
        <Inspector
          trace={b.trace}
          selected={x.selectedB}
          cursor={x.cursor}
          onSelect={x.selectRowB}
          side="B"
        >
          {x.match && <MatchNote match={x.match} side="B" row={x.selectedB} onShow={x.selectRow} />}
        </Inspector>
      ) : (
        <Inspector
          trace={a.trace}
          selected={x.selected}
          cursor={x.cursor}
          onSelect={x.selectRow}
          side={b ? 'A' : undefined}
        >
          {x.match && x.selected !== null && (
            <MatchNote match={x.match} side="A" row={x.selected} onShow={x.selectRowB} />
          )}
        </Inspector>
      )}
      {isRecorded(a) && x.selectedB === null && <RecordedRow run={a} row={x.selected} />}
    </>
  );
  const besideOpen = beside !== null && (x.selected !== null || x.selectedB !== null);
  // A recording as A was configured by nobody: the A column's settings are the model's, which
  // B runs (beside the recording) and A again once the reader goes back to the model.
  const recordedA = isRecorded(a);
  const controlsA = (
    <Controls
      name="A"
      overrides={url.overrides}
      onChange={(overrides) => onUrl({ ...url, overrides })}
      arch={(recordedA ? b?.info.arch : a?.info.arch) ?? 'x86'}
      effective={recordedA ? b?.info.settings : a?.info.settings}
      stepSet={guide.step?.set}
      {...(recordedA
        ? {
            title: 'Settings of the model',
            note: 'A is the recording. These settings run the model: as B beside it in Compare A/B, and as A again after “back to the model”.',
          }
        : {})}
    />
  );
  const controlsB = (
    <Controls
      name="B"
      overrides={url.overridesB}
      onChange={(overridesB) => onUrl({ ...url, overridesB })}
      arch={b?.info.arch ?? a?.info.arch ?? 'x86'}
      effective={b?.info.settings}
      stepSet={guide.step?.compare ?? undefined}
    />
  );
  return (
    <div className={sidebar.open ? 'layout' : 'layout sidebar-closed'}>
      <aside id="settings-sidebar" aria-label="Settings">
        <button
          type="button"
          className="sidebar-toggle"
          aria-expanded={sidebar.open}
          aria-controls="settings-sidebar"
          aria-label={sidebar.open ? 'Hide settings' : 'Show settings'}
          title={`${sidebar.open ? 'Hide' : 'Show'} the settings ([)`}
          onClick={sidebar.toggle}
        >
          {sidebar.open ? '« Hide settings' : '»'}
        </button>
        {sidebar.open && (
          <>
            <ScenarioFile name={ownFileName} onLoad={onOwnFile} unshareable={unshareable} />
            <MeasuredEventsFile value={measured} onLoad={setMeasured} kept={!!a?.trace.remote} />
            <RecordingFile
              value={x.recording}
              onLoad={x.setRecording}
              remoteAbove={url.remoteAbove ?? undefined}
            />
            {url.compare ? <SettingsTabs a={controlsA} b={controlsB} /> : controlsA}
          </>
        )}
      </aside>
      <main>
        <RunStatus label="A" state={x.runA.state} onCancel={x.runA.cancel} />
        {url.compare && <RunStatus label="B" state={x.runB.state} onCancel={x.runB.cancel} />}
        <RunProblem
          label="A"
          state={x.runA.state}
          file={fileName}
          overrides={url.overrides}
          onOverrides={(overrides) => onUrl({ ...url, overrides })}
          onAgain={x.runA.again}
        />
        {url.compare && (
          <RunProblem
            label="B"
            state={x.runB.state}
            file={fileName}
            overrides={url.overridesB}
            onOverrides={(overridesB) => onUrl({ ...url, overridesB })}
            onAgain={x.runB.again}
          />
        )}
        {/* Without a run (a check still going, cancelled or refused) the panel still offers
            the way back. */}
        {url.check && !a && checkPanel}
        {a && (
          <>
            <section className="intro">
              <h2 data-run-title>{titleForRun(a.title, a.trace.cpus)}</h2>
              {guide.index === null &&
                !url.check &&
                (url.compare ? (
                  // Comparing, the two runs' lanes need the first screen: the scenario's
                  // story is one click away.
                  <details className="prose-more">
                    <summary>About this scenario</summary>
                    <Prose text={a.description} />
                  </details>
                ) : (
                  <Prose text={a.description} folded />
                ))}
              {guide.index === null && !url.check && guide.steps.length > 0 && (
                <p>
                  <button type="button" onClick={() => guide.go(0)}>
                    Start the guided steps ({guide.steps.length})
                  </button>
                </p>
              )}
            </section>
            {!isRecorded(a) && guide.index === null && checkPanel}
            {/* A guided step: its words beside the picture (or just above it on a narrow
                page), so the sentence and what it describes are seen together. */}
            <div
              className={['stage', guide.index !== null && 'guided', url.compare && 'comparing']
                .filter(Boolean)
                .join(' ')}
            >
              {guide.index !== null && (
                <Narration
                  steps={guide.steps}
                  index={guide.index}
                  problem={guide.checkIndex !== undefined ? (a.stepProblem ?? '') : ''}
                  file={fileName}
                  onGo={guide.go}
                  runs={
                    isRecorded(a) || (url.compare && (!b || isRecorded(b)))
                      ? null
                      : { A: a, B: b ?? undefined }
                  }
                >
                  {/* A check step: its verdict and counterexample with its words, so that
                      the timeline keeps its place beside them. */}
                  {url.check && checkPanel}
                </Narration>
              )}
              <div
                className="figure"
                ref={setFigure}
                style={url.talk ? ({ '--talk-zoom': talk.zoom } as CSSProperties) : undefined}
                data-talk-fit={url.talk ? (talk.settled ? 'settled' : 'fitting') : undefined}
                onPointerDownCapture={(e) => {
                  pointer.current = {
                    x: e.clientX,
                    y: e.clientY,
                    scrollX: window.scrollX,
                    scrollY: window.scrollY,
                  };
                }}
              >
                {guide.index === null && (
                  <Legend
                    trace={a.trace}
                    also={b?.trace}
                    steps={cx.marks}
                    magnify={guide.step?.magnify}
                  />
                )}
                <Transport
                  playing={x.playing}
                  onPlay={() => x.setPlaying((p) => !p)}
                  onStep={step}
                  rate={x.rate}
                  onRate={x.setRate}
                  spacing={x.spacing}
                  onSpacing={x.setSpacing}
                  spacingUnavailable={x.spacingUnavailable}
                  cursor={x.cursor}
                  end={x.end}
                  onScrub={x.setCursor}
                >
                  <ViewSwitch
                    label="Latency lens"
                    title="Draw non-preemptible waits, IPIs held off by interrupts-off windows and wakeup latencies as labelled intervals"
                    on={lensOn}
                    onChange={(on) => setLensPick({ key: lensKey, on })}
                    note={
                      lensA ? (
                        <span className="muted">
                          {' '}
                          ({lensA.length === 0 ? 'no waits in this run' : `${lensA.length} shown`})
                        </span>
                      ) : (
                        lensAskA && (
                          <span className="muted"> (the window's, counted on the timeline)</span>
                        )
                      )
                    }
                  />
                  <ViewSwitch
                    label="tlb_gen charts"
                    title="Draw each mm's tlb_gen and how far each CPU's slot lags it, under the lanes"
                    on={gensOn}
                    onChange={(on) => setGensPick({ key: lensKey, on })}
                  />
                  {canHistory && (
                    <ViewSwitch
                      label="Kernel history"
                      title="Replay this workload under each kernel's design ({ / } step the kernel)"
                      on={historyOn}
                      onChange={(on) => setHistoryPick({ at: kernelAt, on })}
                    />
                  )}
                </Transport>
                {timeline(a, 'A', url.overrides)}
                {b && timeline(b, 'B', x.overridesB)}
                {besideOpen && (
                  <ErrorBoundary label="the inspector" resetKey={a.trace.version}>
                    <DetailsPopover
                      figure={figure}
                      click={beside.click}
                      selection={`${x.selected}:${x.selectedB}`}
                      onClose={() => setBeside(null)}
                    >
                      {inspectorOf(a)}
                    </DetailsPopover>
                  </ErrorBoundary>
                )}
                {guide.step?.dataset && <MeasuredTable id={guide.step.dataset} />}
                {guide.step?.recording && <RecordingBeside id={guide.step.recording} />}
                {guide.index !== null && (
                  <Legend
                    trace={a.trace}
                    also={b?.trace}
                    steps={cx.marks}
                    magnify={guide.step?.magnify}
                  />
                )}
              </div>
            </div>
            {canHistory && historyOn && (
              <ErrorBoundary label="the kernel history">
                <KernelHistory
                  kernels={KERNELS}
                  history={history}
                  scenario={url.scenario ?? fileName}
                  seed={url.seed}
                  overrides={url.overrides}
                  onOverrides={(overrides) => onUrl({ ...url, overrides })}
                />
              </ErrorBoundary>
            )}
            <ErrorBoundary label="the summary" resetKey={a.trace.version}>
              {isRecorded(a) && (
                <ModelRecording
                  // Another recording starts from its own proposal, not the last one's edits.
                  key={a.trace.version}
                  run={a}
                  onModel={(scenario, overridesB) =>
                    onUrl({
                      ...url,
                      scenario,
                      custom: null,
                      // B runs exactly the list shown: A's own settings would go before it.
                      overrides: [],
                      compare: true,
                      overridesB,
                    })
                  }
                />
              )}
              {b ? (
                <>
                  <div className="compare">
                    <CompareSummary
                      a={a.summary}
                      b={b.summary}
                      measuredA={isRecorded(a) ? a.recording.name : undefined}
                    />
                    <Distribution a={a.trace} b={b.trace} match={x.match} />
                  </div>
                  {x.match && (
                    <FlushMatches
                      match={x.match}
                      selectedA={x.selected}
                      selectedB={x.selectedB}
                      onSelectA={fromBelow(x.selectRow)}
                      onSelectB={fromBelow(x.selectRowB)}
                    />
                  )}
                </>
              ) : isRecorded(a) ? (
                <RecordingSummary run={a} />
              ) : (
                <SummaryPanel summary={a.summary} trace={a.trace} onShow={fromBelow(x.selectRow)} />
              )}
              <ErrorBoundary label="the flush analysis" resetKey={a.trace.version}>
                <FlushAnalysisPanel
                  sides={[
                    { label: 'A', run: a, onSelect: fromBelow(frameFlush('A')) },
                    ...(b
                      ? [{ label: 'B' as const, run: b, onSelect: fromBelow(frameFlush('B')) }]
                      : []),
                  ]}
                />
              </ErrorBoundary>
              <p className="export">
                <PerfettoButton run={a} label="A" window={x.view.get} />
                {b && <PerfettoButton run={b} label="B" window={x.view.get} />}
              </p>
            </ErrorBoundary>
            <ErrorBoundary label="the inspector" resetKey={a.trace.version}>
              <div className={besideOpen ? 'details inspector-beside' : 'details'}>
                <div>{!besideOpen && inspectorOf(a)}</div>
                <EventLog
                  trace={a.trace}
                  window={x.logWindow}
                  selected={x.selected}
                  onSelect={fromBelow(x.selectRow)}
                  b={b?.trace ?? null}
                  selectedB={x.selectedB}
                  onSelectB={fromBelow(x.selectRowB)}
                  match={x.match}
                />
              </div>
            </ErrorBoundary>
            {x.snapshot && (
              <ErrorBoundary label="the machine state" resetKey={x.snapshot}>
                <StateView snap={x.snapshot} run={b ? 'A' : undefined} />
              </ErrorBoundary>
            )}
          </>
        )}
      </main>
    </div>
  );
}
