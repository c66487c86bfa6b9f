// Layout of the explorer page: header with scenario picker, the timeline, legend and summary.
import { useCallback, useEffect, useState } from 'react';
import { Legend } from '../components/Legend';
import { SummaryPanel } from '../components/SummaryPanel';
import { Timeline } from '../components/Timeline';
import { initiatorOf } from '../model/ipis';
import { DEFAULT_SCENARIO, findScenario, scenarios } from '../content/scenarios';
import { readUrl, writeUrl, type UrlState } from './url';
import { useRun } from './useRun';

export function App() {
  const [url, setUrl] = useState<UrlState>(() => readUrl(window.location.search));
  const scenarioId = url.scenario ?? DEFAULT_SCENARIO;
  const run = useRun(findScenario(scenarioId)?.text, url.overrides, url.seed);
  const [rendered, setRendered] = useState(0);

  useEffect(() => {
    window.history.replaceState(null, '', writeUrl(url) || window.location.pathname);
  }, [url]);

  const onRendered = useCallback(() => setRendered((n) => n + 1), []);
  const idle = run.status === 'error' || (run.status === 'done' && rendered > 0);

  return (
    <div className="app" data-state={idle ? 'idle' : 'busy'}>
      <header>
        <h1>tlbscope</h1>
        <label>
          Scenario{' '}
          <select
            value={scenarioId}
            onChange={(e) => {
              setRendered(0);
              setUrl({ ...url, scenario: e.target.value });
            }}
          >
            {scenarios.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Seed{' '}
          <input
            type="number"
            min={0}
            value={url.seed}
            onChange={(e) => {
              const seed = Number(e.target.value);
              if (Number.isInteger(seed) && seed >= 0) setUrl({ ...url, seed });
            }}
          />
        </label>
      </header>
      <main>
        {run.status === 'running' && (
          <p className="status" role="status">
            Simulating…
          </p>
        )}
        {run.status === 'error' && (
          <div role="alert" className="error-panel">
            <h2>This scenario could not be run</h2>
            <pre>{run.message}</pre>
          </div>
        )}
        {run.status === 'done' && (
          <>
            <section className="intro">
              <h2>{run.result.title}</h2>
              <p>{run.result.description}</p>
            </section>
            <Legend />
            <Timeline
              trace={run.result.trace}
              initiator={initiatorOf(run.result.trace)}
              onRendered={onRendered}
            />
            <SummaryPanel summary={run.result.summary} />
          </>
        )}
      </main>
    </div>
  );
}
