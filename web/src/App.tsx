// The page: URL-backed state, the header, and one of three views (guide, explorer, data);
// page-wide shortcuts and the help overlay.
import { useCallback, useRef, useState } from 'react';
import './app/talk.css';
import { DataView } from './components/data/DataView';
import { ErrorBoundary } from './components/ErrorBoundary';
import { ExplorerView } from './components/ExplorerView';
import { Header } from './components/Header';
import { HelpOverlay } from './components/HelpOverlay';
import { Home } from './components/Home';
import { DataEmbed } from './components/share/DataEmbed';
import { EmbedView } from './components/share/EmbedView';
import { LinkNotice } from './components/share/LinkNotice';
import { ModelNotice } from './components/share/ModelNotice';
import { ShareButtons } from './components/share/ShareButtons';
import { DEFAULT_SCENARIO, findScenario } from './content/scenarios';
import { openLink } from './app/openLink';
import { withSource, writeUrl, type UrlState } from './app/url';
import { useLinkSource } from './app/useLinkSource';
import { LinkReading } from './components/share/LinkReading';
import { modelNotice, modelViewOf, withModel } from './app/modelVersion';
import { useEmbedHost } from './app/useEmbedHost';
import { DropNotice } from './components/DropNotice';
import { TalkBlank } from './components/TalkBlank';
import { talkKeys, useClickerSteps, useTalk } from './app/talk';
import { useCounterexample } from './app/useCounterexample';
import { useExplorer } from './app/useExplorer';
import type { SetUrl } from './app/useGuide';
import { useShortcuts } from './app/useShortcuts';
import { KERNELS } from './app/kernels';
import { stepKernel } from './model/kernelHistory';
import { isRecorded } from './recording/asRun';
import { useTheme, type ThemeChoice } from './app/theme';
import { useSidebar } from './app/sidebar';
import { useUrlSync } from './app/useUrlSync';
import { useSvgDrop } from './app/useSvgDrop';

export function App() {
  const [link] = useState(() => openLink(window.location.search));
  const [url, setUrlState] = useState<UrlState>(link.url);
  const [ignored, setIgnored] = useState<string[]>(link.ignored);
  const [model, setModel] = useState(() => modelNotice(link.model, modelViewOf(link.url)));
  const [help, setHelp] = useState(false);
  const [homeReady, setHomeReady] = useState(false);
  const [copyRequest, setCopyRequest] = useState(0);
  const replaceNext = useRef(false);
  const urlNow = useRef(url);
  urlNow.current = url;
  const addIgnored = useCallback(
    (more: string[]) => setIgnored((old) => [...old, ...more.filter((m) => !old.includes(m))]),
    [],
  );
  // The link's own scenario arrives after the rest of it: it joins the state it opened, as the
  // same history entry.
  const source = useLinkSource(link.source ?? null, (s, read) => {
    const r = withSource(urlNow.current, s, read);
    addIgnored(r.ignored);
    if (r.url !== urlNow.current) {
      replaceNext.current = true;
      setUrlState(r.url);
    }
  });
  const stopReading = source.read;
  const setUrl: SetUrl = useCallback(
    (u, how) => {
      // Another scenario or view picked meanwhile: the link's own scenario is no longer wanted.
      const now = urlNow.current;
      if (u.view !== now.view || u.scenario !== now.scenario || u.custom !== now.custom)
        stopReading(null);
      if (how?.replace) replaceNext.current = true;
      setUrlState(u);
    },
    [stopReading],
  );
  const scenarioId = url.scenario ?? DEFAULT_SCENARIO;
  // null while the link's own scenario is read: nothing runs until it is there.
  const text = source.reading ? null : (url.custom?.text ?? findScenario(scenarioId)?.text);
  const x = useExplorer(url, setUrl, text, link.view, addIgnored, !!source.reading);
  const { guide } = x;
  const cx = useCounterexample(x, url, setUrl);

  const sync = useUrlSync({
    url,
    view: () => (url.view !== 'explore' || x.fresh ? x.viewState() : null),
    viewKey: [x.cursor, x.selected, x.selectedB, x.spacing, x.logWindow, x.fresh],
    replaceNext,
    onPop: (search) => {
      const p = openLink(search);
      sync.settle(p.url);
      source.read(p.source ?? null);
      setUrlState(p.url);
      setIgnored(p.ignored);
      setModel(modelNotice(p.model, modelViewOf(p.url)));
      x.restore(p.view);
    },
  });
  useEmbedHost(url, setUrl, x, url.custom?.name ?? source.reading?.name ?? scenarioId);
  const here = (u: UrlState) =>
    `${window.location.origin}${window.location.pathname}${withModel(writeUrl(u, x.viewState()))}`;

  const theme = useTheme(url.theme);
  const sidebar = useSidebar(url.step !== null);
  // The reader's pick replaces a theme the link forced (it stays in the link otherwise).
  const chooseTheme = (c: ThemeChoice) => {
    theme.setChoice(c);
    if (url.theme) setUrl({ ...url, theme: null }, { replace: true });
  };
  const talk = useTalk(!!url.talk, (on) => setUrl({ ...url, talk: on }, { replace: true }));
  const drop = useSvgDrop();
  const clicker = useClickerSteps(guide, url.step, (step) => setUrl({ ...url, step }));

  const onHomeReady = useCallback(() => setHomeReady(true), []);
  const idle = url.view === 'home' ? homeReady : url.view === 'data' || (x.idle && !source.reading);

  const stepKernelOf = (dir: 1 | -1) => {
    if (url.view !== 'explore' || !x.a || isRecorded(x.a) || x.a.info.arch !== 'x86') return;
    const next = stepKernel(KERNELS, url.overrides, dir);
    if (next) setUrl({ ...url, overrides: next });
  };
  useShortcuts({
    '?': () => setHelp((h) => !h),
    '.': () => x.step(1),
    ',': () => x.step(-1),
    Space: () => x.setPlaying((p) => !p),
    e: () => x.setSpacing((s) => (s === 'time' ? 'event' : 'time')),
    c: () => setUrl({ ...url, compare: !url.compare }),
    l: () => setCopyRequest((n) => n + 1),
    m: () => chooseTheme(theme.next),
    '[': () => url.view === 'explore' && sidebar.toggle(),
    // The kernel history slider (the x86 model's runs only; a recording has no kernel= to set).
    '{': () => stepKernelOf(-1),
    '}': () => stepKernelOf(1),
    ArrowRight: () =>
      guide.index !== null &&
      guide.go(guide.index + 1 < guide.steps.length ? guide.index + 1 : null),
    ArrowLeft: () => guide.index !== null && guide.index > 0 && guide.go(guide.index - 1),
    Escape: () => {
      if (help) setHelp(false);
      else if (!x.cancel()) x.setSelected(null);
    },
    t: talk.toggle,
    n: () => cx.move(1),
    p: () => cx.move(-1),
    ...(talk.on && url.view === 'explore'
      ? talkKeys(clicker.steps, clicker.index, clicker.go)
      : {}),
  });

  const fileName =
    url.custom?.name ?? source.reading?.name ?? `content/scenarios/${scenarioId}.toml`;
  const reading = source.reading && url.view === 'explore' && (
    <LinkReading name={source.reading.name} />
  );
  if (url.embed) {
    return (
      <div className="app" data-state={idle ? 'idle' : 'busy'}>
        {url.view === 'data' ? (
          <ErrorBoundary label="the embedded chart">
            <DataEmbed
              chart={url.chart ?? null}
              onChart={(chart) => setUrl({ ...url, chart })}
              onIgnored={addIgnored}
              fullLink={here({ ...url, embed: false, origin: null, chart: null })}
            />
          </ErrorBoundary>
        ) : (
          <ErrorBoundary label="the embedded diagram">
            {reading}
            <EmbedView
              x={x}
              url={url}
              fileName={fileName}
              fullLink={here({ ...url, embed: false, origin: null })}
              cx={cx}
            />
          </ErrorBoundary>
        )}
        <LinkNotice ignored={ignored} onDismiss={() => setIgnored([])} />
        <ModelNotice notice={model} onDismiss={() => setModel(null)} />
      </div>
    );
  }

  return (
    <div className={talk.on ? 'app talk' : 'app'} data-state={idle ? 'idle' : 'busy'}>
      <Header
        url={url}
        scenarioId={scenarioId}
        onUrl={setUrl}
        onHelp={() => setHelp(true)}
        talk={talk.on}
        onTalk={talk.toggle}
        theme={url.theme ?? theme.choice}
        onTheme={chooseTheme}
      >
        <ShareButtons
          link={() => here(url)}
          embedLink={() => here({ ...url, embed: true })}
          copyRequest={copyRequest}
        />
      </Header>
      <LinkNotice ignored={ignored} onDismiss={() => setIgnored([])} />
      <ModelNotice notice={model} onDismiss={() => setModel(null)} />
      {drop.message && <DropNotice message={drop.message} onDismiss={drop.dismiss} />}
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
                  custom: null,
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
      {reading}
      {url.view === 'explore' && (
        <ExplorerView
          x={x}
          url={url}
          onUrl={setUrl}
          fileName={fileName}
          text={text ?? undefined}
          ownFileName={url.custom?.name ?? null}
          onOwnFile={(custom) => setUrl({ ...url, custom, step: null })}
          sidebar={sidebar}
          cx={cx}
        />
      )}
      {help && (
        <HelpOverlay
          onClose={() => setHelp(false)}
          guided={url.view === 'explore' && guide.index !== null}
        />
      )}
      {talk.blank && <TalkBlank onUnblank={() => talk.setBlank(false)} />}
    </div>
  );
}
