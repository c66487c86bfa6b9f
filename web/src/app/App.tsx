// Layout and state of the explorer: scenario and settings (A, and B when comparing), the
// visible window, cursor and selection shared by every view, playback and shortcuts.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { CompareSummary } from '../components/CompareSummary';
import { Controls } from '../components/Controls';
import { DataView } from '../components/data/DataView';
import { Distribution } from '../components/Distribution';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { EventLog } from '../components/EventLog';
import { Header } from '../components/Header';
import { HelpOverlay } from '../components/HelpOverlay';
import { Home } from '../components/Home';
import { Inspector } from '../components/Inspector';
import { Legend } from '../components/Legend';
import { Narration } from '../components/Narration';
import { Prose } from '../components/Prose';
import { RunStatus } from '../components/RunStatus';
import { ScenarioFile } from '../components/ScenarioFile';
import { StateView } from '../components/StateView';
import { SummaryPanel } from '../components/SummaryPanel';
import { Timeline, useSettled } from '../components/Timeline';
import { Transport } from '../components/Transport';
import { DEFAULT_SCENARIO, findScenario } from '../content/scenarios';
import { extentOf, nextRow, prevRow } from '../model/events';
import { initiatorOf } from '../model/ipis';
import type { RunResult } from '../sim/session';
import { readUrl, writeUrl, type UrlState } from './url';
import { useGuide } from './useGuide';
import { usePlayback } from './usePlayback';
import { useRun, type RunState } from './useRun';
import { useShortcuts } from './useShortcuts';
import { useSnapshot } from './useSnapshot';

const reducedMotion = () =>
  window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

export function App() {
  const [url, setUrl] = useState<UrlState>(() => readUrl(window.location.search));
  const [ownFile, setOwnFile] = useState<{ name: string; text: string } | null>(null);
  const scenarioId = url.scenario ?? DEFAULT_SCENARIO;
  const text = ownFile?.text ?? findScenario(scenarioId)?.text;
  const fileName = ownFile?.name ?? `content/scenarios/${scenarioId}.toml`;
  const explore = url.view === 'explore';
  // null: no run wanted (another view, or no comparison); undefined: unknown scenario.
  const runA = useRun(
    explore ? text : null,
    url.overrides,
    url.seed,
    url.step !== null ? url.step - 1 : undefined,
  );
  const runB = useRun(explore && url.compare ? text : null, url.overridesB, url.seed);
  const a = runA.state.status === 'done' ? runA.state.result : null;
  const b = url.compare && runB.state.status === 'done' ? runB.state.result : null;
  const fullExtent = useMemo<[number, number]>(
    () => (a ? extentOf(a.trace, ...(b ? [b.trace] : [])) : [0, 1]),
    [a, b],
  );

  const [window_, setWindow] = useState<[number, number]>([0, 1]);
  const logWindow = useSettled(window_); // the log follows once a zoom or pan rests
  const [cursor, setCursor] = useState<number | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [spacing, setSpacing] = useState<'time' | 'event'>('time');
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1000);
  const [help, setHelp] = useState(false);
  const [rendered, setRendered] = useState<ReadonlySet<number>>(new Set());
  const [homeReady, setHomeReady] = useState(false);
  const guide = useGuide(url, setUrl, a, fullExtent);
  const snapshot = useSnapshot(runA.snapshot, cursor, a?.trace.version ?? null);

  useEffect(() => {
    window.history.replaceState(null, '', writeUrl(url) || window.location.pathname);
  }, [url]);

  // A new run, or a new step, shows the step's window (or the whole run) with nothing selected.
  const stepWindow = guide.step?.window ?? null;
  useEffect(() => {
    if (!a) return;
    setWindow(stepWindow ?? fullExtent);
    setSelected(null);
    setCursor(null);
    setPlaying(false);
  }, [a, fullExtent, stepWindow]);

  const onHomeReady = useCallback(() => setHomeReady(true), []);
  // Selecting an event also puts the cursor on it, so the machine state shown is its moment.
  const selectRow = useCallback(
    (row: number | null) => {
      setSelected(row);
      if (row !== null && a && row < a.trace.n) setCursor(a.trace.time[row]);
    },
    [a],
  );
  const onRenderedA = useCallback(
    () => a && setRendered((s) => new Set(s).add(a.trace.version)),
    [a],
  );
  const onRenderedB = useCallback(
    () => b && setRendered((s) => new Set(s).add(b.trace.version)),
    [b],
  );
  const settled = (s: RunState, r: RunResult | null) =>
    s.status !== 'running' &&
    (s.status !== 'done' || (r !== null && rendered.has(r.trace.version)));
  const idle =
    url.view === 'home'
      ? homeReady
      : settled(runA.state, a) && (!url.compare || settled(runB.state, b));

  const step = useCallback(
    (dir: 1 | -1) => {
      if (!a) return false;
      const t = cursor ?? (dir > 0 ? -1 : Infinity);
      const row = dir > 0 ? nextRow(a.trace, selected, t) : prevRow(a.trace, selected, t);
      if (row < 0) return false;
      setSelected(row);
      setCursor(a.trace.time[row]);
      return true;
    },
    [a, cursor, selected],
  );

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
      const more = step(1);
      if (!more) setPlaying(false);
      return more;
    },
  );

  useShortcuts({
    '?': () => setHelp((h) => !h),
    '.': () => step(1),
    ',': () => step(-1),
    Space: () => setPlaying((p) => !p),
    e: () => setSpacing((s) => (s === 'time' ? 'event' : 'time')),
    c: () => setUrl((u) => ({ ...u, compare: !u.compare })),
    ArrowRight: () =>
      guide.index !== null &&
      guide.go(guide.index + 1 < guide.steps.length ? guide.index + 1 : null),
    ArrowLeft: () => guide.index !== null && guide.index > 0 && guide.go(guide.index - 1),
    Escape: () => {
      if (help) setHelp(false);
      else if (runA.state.status === 'running' || runB.state.status === 'running') {
        runA.cancel();
        runB.cancel();
      } else setSelected(null);
    },
  });

  return (
    <div className="app" data-state={idle ? 'idle' : 'busy'}>
      <Header url={url} scenarioId={scenarioId} onUrl={setUrl} onHelp={() => setHelp(true)} />
      {url.view === 'home' && (
        <main className="home-main">
          <ErrorBoundary label="the guide">
            <Home
              onOpen={(scenario, step) =>
                setUrl({
                  ...url,
                  view: 'explore',
                  scenario,
                  step,
                  overrides: [],
                  overridesB: [],
                  compare: false,
                })
              }
              onReady={onHomeReady}
            />
          </ErrorBoundary>
        </main>
      )}
      {url.view === 'data' && (
        <main className="data-main">
          <ErrorBoundary label="the data view">
            <DataView />
          </ErrorBoundary>
        </main>
      )}
      {explore && (
        <div className="layout">
          <aside>
            <ScenarioFile
              name={ownFile?.name ?? null}
              onLoad={(f) => {
                setOwnFile(f);
                setUrl({ ...url, step: null });
              }}
            />
            <Controls
              name="A"
              overrides={url.overrides}
              onChange={(overrides) => setUrl({ ...url, overrides })}
              arch={a?.info.arch ?? 'x86'}
            />
            {url.compare && (
              <Controls
                name="B"
                overrides={url.overridesB}
                onChange={(overridesB) => setUrl({ ...url, overridesB })}
                arch={b?.info.arch ?? a?.info.arch ?? 'x86'}
              />
            )}
          </aside>
          <main>
            <RunStatus label="A" state={runA.state} onCancel={runA.cancel} />
            {url.compare && <RunStatus label="B" state={runB.state} onCancel={runB.cancel} />}
            <RunProblem label="A" state={runA.state} file={fileName} />
            {url.compare && <RunProblem label="B" state={runB.state} file={fileName} />}
            {a && (
              <>
                <section className="intro">
                  <h2>{a.title}</h2>
                  {guide.index === null && <Prose text={a.description} />}
                  {guide.index === null && guide.steps.length > 0 && (
                    <p>
                      <button type="button" onClick={() => guide.go(0)}>
                        Start the guided steps ({guide.steps.length})
                      </button>
                    </p>
                  )}
                </section>
                {guide.index !== null && (
                  <Narration
                    steps={guide.steps}
                    index={guide.index}
                    problem={guide.checkIndex !== undefined ? (a.stepProblem ?? '') : ''}
                    file={fileName}
                    onGo={guide.go}
                  />
                )}
                <Legend trace={a.trace} />
                <Transport
                  playing={playing}
                  onPlay={() => setPlaying((p) => !p)}
                  onStep={step}
                  rate={rate}
                  onRate={setRate}
                  spacing={spacing}
                  onSpacing={setSpacing}
                  cursor={cursor}
                  end={end}
                  onScrub={setCursor}
                />
                <ErrorBoundary label="the timeline" resetKey={a.trace.version}>
                  <Timeline
                    trace={a.trace}
                    label={
                      url.compare
                        ? `A: ${url.overrides.join(' ') || 'as the scenario says'}`
                        : undefined
                    }
                    window={window_}
                    onWindowChange={setWindow}
                    fullExtent={fullExtent}
                    cursor={cursor}
                    onCursorChange={setCursor}
                    selected={selected}
                    onSelect={selectRow}
                    highlight={guide.highlight}
                    spacing={spacing}
                    initiator={initiatorOf(a.trace)}
                    onRendered={onRenderedA}
                  />
                </ErrorBoundary>
                {b && (
                  <ErrorBoundary label="timeline B" resetKey={b.trace.version}>
                    <Timeline
                      trace={b.trace}
                      label={`B: ${url.overridesB.join(' ') || 'as the scenario says'}`}
                      window={window_}
                      onWindowChange={setWindow}
                      fullExtent={fullExtent}
                      cursor={cursor}
                      onCursorChange={setCursor}
                      selected={null}
                      spacing={spacing}
                      initiator={initiatorOf(b.trace)}
                      onRendered={onRenderedB}
                    />
                  </ErrorBoundary>
                )}
                <ErrorBoundary label="the summary" resetKey={a.trace.version}>
                  {b ? (
                    <div className="compare">
                      <CompareSummary a={a.summary} b={b.summary} />
                      <Distribution a={a.trace} b={b.trace} />
                    </div>
                  ) : (
                    <SummaryPanel summary={a.summary} trace={a.trace} onShow={selectRow} />
                  )}
                </ErrorBoundary>
                <ErrorBoundary label="the inspector" resetKey={a.trace.version}>
                  <div className="details">
                    <Inspector
                      trace={a.trace}
                      selected={selected}
                      cursor={cursor}
                      onSelect={selectRow}
                    />
                    <EventLog
                      trace={a.trace}
                      window={logWindow}
                      selected={selected}
                      onSelect={selectRow}
                    />
                  </div>
                </ErrorBoundary>
                {snapshot && (
                  <ErrorBoundary label="the machine state" resetKey={snapshot}>
                    <StateView snap={snapshot} />
                  </ErrorBoundary>
                )}
              </>
            )}
          </main>
        </div>
      )}
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}

function RunProblem({ label, state, file }: { label: string; state: RunState; file: string }) {
  if (state.status === 'error') {
    return (
      <div role="alert" className="error-panel">
        <h2>Run {label} could not start</h2>
        <pre>
          {file}: {state.message}
        </pre>
      </div>
    );
  }
  if (state.status === 'cancelled') {
    return (
      <p className="status" role="status">
        Run {label} was cancelled. Change a setting or the seed to run again.
      </p>
    );
  }
  return null;
}
