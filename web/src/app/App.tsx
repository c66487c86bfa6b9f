// The page: URL-backed state, the header, and one of three views (guide, explorer, data);
// page-wide shortcuts and the help overlay.
import { useCallback, useEffect, useState } from 'react';
import './talk.css';
import { DataView } from '../components/data/DataView';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { ExplorerView } from '../components/ExplorerView';
import { Header } from '../components/Header';
import { HelpOverlay } from '../components/HelpOverlay';
import { Home } from '../components/Home';
import { DropNotice } from '../components/DropNotice';
import { TalkBlank } from '../components/TalkBlank';
import { DEFAULT_SCENARIO, findScenario } from '../content/scenarios';
import { talkKeys, useClickerSteps, useTalk } from './talk';
import { readUrl, writeUrl, type UrlState } from './url';
import { useExplorer } from './useExplorer';
import { useShortcuts } from './useShortcuts';
import { useSvgDrop } from './useSvgDrop';

export function App() {
  const [url, setUrl] = useState<UrlState>(() => readUrl(window.location.search));
  const [ownFile, setOwnFile] = useState<{ name: string; text: string } | null>(null);
  const [help, setHelp] = useState(false);
  const [homeReady, setHomeReady] = useState(false);
  const scenarioId = url.scenario ?? DEFAULT_SCENARIO;
  const x = useExplorer(url, setUrl, ownFile?.text ?? findScenario(scenarioId)?.text);
  const { guide } = x;

  useEffect(() => {
    window.history.replaceState(null, '', writeUrl(url) || window.location.pathname);
  }, [url]);
  // After the URL effect above, so that talk mode's parameter survives its rewrite.
  const talk = useTalk();
  const drop = useSvgDrop();
  const clicker = useClickerSteps(guide, url.step, (step) => setUrl((u) => ({ ...u, step })));

  const onHomeReady = useCallback(() => setHomeReady(true), []);
  const idle = url.view === 'home' ? homeReady : url.view === 'data' || x.idle;

  useShortcuts({
    '?': () => setHelp((h) => !h),
    '.': () => x.step(1),
    ',': () => x.step(-1),
    Space: () => x.setPlaying((p) => !p),
    e: () => x.setSpacing((s) => (s === 'time' ? 'event' : 'time')),
    c: () => setUrl((u) => ({ ...u, compare: !u.compare })),
    ArrowRight: () =>
      guide.index !== null &&
      guide.go(guide.index + 1 < guide.steps.length ? guide.index + 1 : null),
    ArrowLeft: () => guide.index !== null && guide.index > 0 && guide.go(guide.index - 1),
    Escape: () => {
      if (help) setHelp(false);
      else if (!x.cancel()) x.setSelected(null);
    },
    t: talk.toggle,
    ...(talk.on && url.view === 'explore'
      ? talkKeys(clicker.steps, clicker.index, clicker.go)
      : {}),
  });

  return (
    <div className={talk.on ? 'app talk' : 'app'} data-state={idle ? 'idle' : 'busy'}>
      <Header
        url={url}
        scenarioId={scenarioId}
        onUrl={setUrl}
        onHelp={() => setHelp(true)}
        talk={talk.on}
        onTalk={talk.toggle}
      />
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
      {url.view === 'explore' && (
        <ExplorerView
          x={x}
          url={url}
          onUrl={setUrl}
          fileName={ownFile?.name ?? `content/scenarios/${scenarioId}.toml`}
          ownFileName={ownFile?.name ?? null}
          onOwnFile={setOwnFile}
        />
      )}
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
      {talk.blank && <TalkBlank onUnblank={() => talk.setBlank(false)} />}
    </div>
  );
}
