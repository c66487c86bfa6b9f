// Fit a machine preset to an imported dataset, in a worker, with every row's residual shown;
// then open any scenario with the fitted costs (`machine=<preset>` + `costs.*` overrides).
import { useEffect, useRef, useState } from 'react';
import type { Dataset } from '../../content/datasets';
import { BENCHMARK_MODELS } from '../../content/benchmarks';
import { scenarios } from '../../content/scenarios';
import { fitRowsOf, fittedOverrides, scenarioLink } from '../../model/fitted';
import { fitInWorker, type Fitted } from '../../workers/fitSession';
import { boundFlags, fittedToml } from '../../model/fitQuality';
import { download } from '../../app/download';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; line: string; cancel: () => void }
  | { kind: 'done'; fitted: Fitted }
  | { kind: 'error'; message: string };

const texts = Object.fromEntries(scenarios.map((s) => [s.id, s.text]));
const archOf = (text: string) => /^arch\s*=\s*"(\w+)"/m.exec(text)?.[1] ?? 'x86';
const us = (ns: number) => `${(ns / 1000).toFixed(4)} µs`;

const fittedScenario = (f: Fitted) =>
  BENCHMARK_MODELS[f.result.residuals[0]?.benchmark]?.scenario ?? '';

export function FitPanel({
  dataset,
  onFitted,
}: {
  dataset: Dataset;
  /** A fit finished: kept with the dataset. */
  onFitted: (f: Fitted) => void;
}) {
  // Kept by this panel's onFitted, so it is a Fitted when present.
  const kept = dataset.fit as Fitted | undefined;
  const [state, setState] = useState<State>(
    kept ? { kind: 'done', fitted: kept } : { kind: 'idle' },
  );
  const [target, setTarget] = useState(kept ? fittedScenario(kept) : '');
  const cancelRef = useRef<(() => void) | null>(null);
  useEffect(() => () => cancelRef.current?.(), []);

  const start = () => {
    const job = fitInWorker(fitRowsOf(dataset.measurements), texts, (line) =>
      setState((s) => (s.kind === 'running' ? { ...s, line } : s)),
    );
    cancelRef.current = job.cancel;
    setState({ kind: 'running', line: 'starting…', cancel: job.cancel });
    job.done.then(
      (fitted) => {
        // Start from the scenario the fit ran: the preset belongs to its architecture.
        setTarget(fittedScenario(fitted));
        setState({ kind: 'done', fitted });
        onFitted(fitted);
      },
      (e: unknown) =>
        setState((s) =>
          s.kind === 'running' ? { kind: 'error', message: String((e as Error).message ?? e) } : s,
        ),
    );
  };

  return (
    <section className="fit-panel" aria-label={`Fit a machine to ${dataset.file}`}>
      {state.kind !== 'running' && (
        <button type="button" onClick={start}>
          Fit a machine preset to {dataset.file}
        </button>
      )}
      {state.kind === 'running' && (
        <p role="status">
          Fitting in a worker: {state.line}{' '}
          <button type="button" onClick={() => (state.cancel(), setState({ kind: 'idle' }))}>
            Cancel
          </button>
        </p>
      )}
      {state.kind === 'error' && (
        <p className="error" role="alert">
          Cannot fit {dataset.file}: {state.message}
        </p>
      )}
      {state.kind === 'done' && (
        <FitResultView
          fitted={state.fitted}
          file={dataset.file}
          target={target}
          onTarget={setTarget}
        />
      )}
    </section>
  );
}

function FitResultView({
  fitted,
  file,
  target,
  onTarget,
}: {
  fitted: Fitted;
  file: string;
  target: string;
  onTarget: (id: string) => void;
}) {
  const r = fitted.result;
  const overrides = fittedOverrides(r);
  const flags = boundFlags(r);
  const fittedOn = BENCHMARK_MODELS[r.residuals[0]?.benchmark]?.scenario;
  const arch = fittedOn && texts[fittedOn] ? archOf(texts[fittedOn]) : null;
  // A preset is one architecture's: offer the scenarios of that architecture.
  const offered = scenarios.filter((s) => arch === null || archOf(s.text) === arch);
  const chosen = offered.some((s) => s.id === target) ? target : (offered[0]?.id ?? '');
  return (
    <div className="fit-result" data-testid="fit-result">
      <p>
        Fitted on preset <code>{r.preset}</code> ({r.runs} simulator runs, {r.iterations}{' '}
        iterations), rms residual <strong data-fit="rms">{r.rms_pct.toFixed(2)} %</strong>.
      </p>
      <table className="fit-params">
        <thead>
          <tr>
            <th scope="col">cost</th>
            <th scope="col">preset</th>
            <th scope="col">fitted</th>
          </tr>
        </thead>
        <tbody>
          {r.params.map((p) => (
            <tr key={p.name} data-param={p.name}>
              <th scope="row">
                <code>{p.name}</code>
              </th>
              <td>{p.start} ns</td>
              <td>
                {p.value} ns{p.identifiable ? '' : ' (no effect on these rows: left as is)'}
                {flags.some((f) => f.name === p.name) && (
                  <strong className="fit-flag">
                    {' '}
                    at its {flags.find((f) => f.name === p.name)!.bound}
                  </strong>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {flags.length > 0 && (
        <ul className="fit-flags" data-testid="fit-flags" role="alert">
          {flags.map((f) => (
            <li key={f.name} data-param={f.name}>
              <code>{f.name}</code> ended at its {f.bound} ({f.value} ns), so its value is not
              measured: {f.reason}.
            </li>
          ))}
        </ul>
      )}
      <table className="fit-residuals">
        <caption>Residuals: predicted − measured, per row</caption>
        <thead>
          <tr>
            <th scope="col">row</th>
            <th scope="col">variant</th>
            <th scope="col">measured</th>
            <th scope="col">predicted</th>
            <th scope="col">residual</th>
          </tr>
        </thead>
        <tbody>
          {r.residuals.map((x) => (
            <tr key={`${x.line}-${x.metric}`} data-row={x.line}>
              <td>{x.line}</td>
              <td>
                <code>{x.variant || '(none)'}</code> {x.metric}
              </td>
              <td>{us(x.measured_ns)}</td>
              <td>{us(x.predicted_ns)}</td>
              <td data-residual-pct={x.residual_pct}>
                {x.residual_pct >= 0 ? '+' : ''}
                {x.residual_pct.toFixed(2)} %
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {fitted.skipped.length > 0 && (
        <p className="muted">
          Not fitted: {fitted.skipped.map((s) => `row ${s.line} (${s.reason})`).join('; ')}.
        </p>
      )}
      <p className="fit-use">
        <label>
          Run a scenario with this machine:{' '}
          <select value={chosen} onChange={(e) => onTarget(e.target.value)}>
            {offered.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id}
              </option>
            ))}
          </select>
        </label>{' '}
        <a href={scenarioLink(chosen, overrides)} data-testid="use-fitted">
          open it with {overrides.map((o) => o).join(' ')}
        </a>
      </p>
      <p>
        <button
          type="button"
          onClick={() =>
            download(
              new Blob([fittedToml(r, file)], { type: 'application/toml' }),
              file.replace(/(\.csv)?$/i, '-fitted.toml'),
            )
          }
        >
          Download the fitted preset (.toml)
        </button>{' '}
        <span className="muted">
          for <code>tlbscope run &lt;scenario&gt; --costs &lt;file&gt;</code>
        </span>
      </p>
    </div>
  );
}
