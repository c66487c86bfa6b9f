// The kernel history: a slider over the kernels `kernel=` knows (oldest left) that replays the
// current workload under each kernel's design toggles, with a table and a chart of every
// kernel's figures and what each step changed. The slider writes the A settings (so the link
// holds the kernel); the table's runs happen in a worker of their own (useKernelHistory).
import { useEffect, useMemo, useRef } from 'react';
import type { KernelHistory as History } from '../app/useKernelHistory';
import {
  chosenKernel,
  commitsOf,
  historyRows,
  historySource,
  kernelOverrides,
  workloadOf,
  type Figure,
  type HistoryRow,
  type KernelStep,
} from '../model/kernelHistory';
import { renderKernelHistory, type HistorySeries } from '../viz/kernelHistory';
import { formatNs } from '../viz/scales';
import './kernelHistory.css';

interface Props {
  kernels: readonly KernelStep[];
  /** The table's runs (useKernelHistory, kept by the explorer across A's re-runs). */
  history: History;
  scenario: string;
  seed: number;
  overrides: readonly string[];
  onOverrides: (o: string[]) => void;
}

function signed(delta: number, fmt: (n: number) => string): string {
  if (delta === 0) return 'no change';
  return `${delta > 0 ? '+' : '−'}${fmt(Math.abs(delta))}`;
}

function FigureCell({ f, field }: { f: Figure | null; field: string }) {
  if (!f) return <td data-field={field}>…</td>;
  return (
    <td data-field={field} data-ns={f.ns ?? ''}>
      {f.ns === null ? '—' : formatNs(f.ns)}
      {f.delta !== null && (
        <span className={f.delta === 0 ? 'delta same' : 'delta'}>{signed(f.delta, formatNs)}</span>
      )}
    </td>
  );
}

/** The change text with its commit ids set as code. */
function Change({ text }: { text: string }) {
  const ids = commitsOf(text);
  if (!ids.length) return <>{text}</>;
  const parts = text.split(/\b([0-9a-f]{12})\b/);
  return (
    <>
      {parts.map((p, i) =>
        i % 2 ? (
          <code key={i} className="commit">
            {p}
          </code>
        ) : (
          p
        ),
      )}
    </>
  );
}

interface RowProps {
  r: HistoryRow;
  chosen: boolean;
  onPick: () => void;
  /** Whether the scenario measures ops (else the op latency column is left out). */
  ops: boolean;
}

/** A kernel's figures, and under them (a row of its own, so the table stays narrow) its change. */
/** A series' marker (the chart's shape and colour, drawn, so it is not text) and its name. */
function Key({ id, label }: { id: 'op' | 'flush' | 'preempt'; label: string }) {
  const shape = {
    op: <circle cx="6" cy="6" r="4.5" />,
    flush: <rect x="1.5" y="1.5" width="9" height="9" />,
    preempt: <polygon points="6,1 11,11 1,11" />,
  }[id];
  return (
    <span className="key">
      <svg className={`series-${id}`} width="12" height="12" aria-hidden="true">
        <g className="history-point">{shape}</g>
      </svg>{' '}
      {label}
    </span>
  );
}

function Row({ r, chosen, onPick, ops }: RowProps) {
  const current = chosen ? 'true' : undefined;
  const columns = ops ? 6 : 5;
  return (
    <tbody data-kernel={r.kernel} aria-current={current}>
      <tr>
        <th scope="row">
          <button
            type="button"
            className="linklike"
            onClick={onPick}
            aria-label={`Show Linux ${r.kernel}`}
          >
            {r.kernel}
          </button>
        </th>
        {r.error ? (
          <td colSpan={columns - 1} className="history-error" data-field="error">
            not run: {r.error}
          </td>
        ) : (
          <>
            {ops && <FigureCell f={r.opLatency} field="op" />}
            <FigureCell f={r.flushLatency} field="flush" />
            <FigureCell f={r.preemptOffMax} field="preempt" />
            <td data-field="ipis">
              {r.ipis ? r.ipis.n.toLocaleString('en-US') : '…'}
              {r.ipis?.delta != null && r.ipis.delta !== 0 && (
                <span className="delta">
                  {signed(r.ipis.delta, (n) => n.toLocaleString('en-US'))}
                </span>
              )}
            </td>
            <td data-field="safety" className={r.safety && r.safety !== 'safe' ? 'unsafe' : ''}>
              {r.safety ?? '…'}
              {r.safetyChange && <span className="delta">{r.safetyChange}</span>}
            </td>
          </>
        )}
      </tr>
      <tr className="change-row">
        <td colSpan={columns}>
          <Change text={r.change} />
        </td>
      </tr>
    </tbody>
  );
}

export function KernelHistory(props: Props) {
  const { kernels, history: h, scenario, seed, overrides, onOverrides } = props;
  const chosen = chosenKernel(kernels, overrides);
  const workload = useMemo(() => workloadOf(kernels, overrides), [kernels, overrides]);
  const rows = useMemo(() => historyRows(kernels, h.results), [kernels, h.results]);
  const pick = (i: number) => onOverrides(kernelOverrides(kernels, overrides, i));
  const names = kernels.map((k) => k.name);
  const machines = h.results.flatMap((r) => (r.status === 'done' ? [r.figures.machine] : []));
  const here = chosen ? kernels[chosen.index] : null;

  const chart = useRef<SVGSVGElement>(null);
  const hasOps = rows.some((r) => r.opLatency?.ns != null);
  useEffect(() => {
    if (!chart.current) return;
    const series: HistorySeries[] = [
      ...(hasOps
        ? [
            {
              id: 'op' as const,
              label: 'op latency',
              values: rows.map((r) => r.opLatency?.ns ?? null),
            },
          ]
        : []),
      { id: 'flush', label: 'flush latency', values: rows.map((r) => r.flushLatency?.ns ?? null) },
      {
        id: 'preempt',
        label: 'max preempt-off',
        values: rows.map((r) => r.preemptOffMax?.ns ?? null),
      },
    ];
    renderKernelHistory(chart.current, names, series, chosen?.index ?? null, 380, 170);
  });

  return (
    <section className="kernel-history" aria-labelledby="kernel-history-title">
      <h2 id="kernel-history-title">Kernel history</h2>
      <div className="history-slider">
        <input
          type="range"
          min={0}
          max={kernels.length - 1}
          step={1}
          value={chosen?.index ?? 0}
          className={chosen ? '' : 'unset'}
          aria-label="Kernel"
          aria-valuetext={here ? `Linux ${here.name}` : 'the scenario’s own settings'}
          list="kernel-stops"
          onChange={(e) => pick(Number(e.target.value))}
          // With no kernel chosen yet, a click on the first stop changes no value: take it.
          onClick={(e) => !chosen && pick(Number(e.currentTarget.value))}
        />
        <datalist id="kernel-stops">
          {names.map((n, i) => (
            <option key={n} value={i} label={n} />
          ))}
        </datalist>
        <ol className="stops" aria-hidden="true">
          {names.map((n, i) => (
            <li
              key={n}
              className={chosen?.index === i ? 'on' : ''}
              style={{ left: `${(100 * i) / Math.max(1, names.length - 1)}%` }}
            >
              {n}
            </li>
          ))}
        </ol>
      </div>
      <p className="history-now" data-history-now>
        {here ? (
          <>
            The timeline shows Linux <strong>{here.name}</strong>
            {chosen && chosen.departures.length > 0 && (
              <> with your changes ({chosen.departures.join(', ')})</>
            )}
            : <Change text={here.change} />
          </>
        ) : (
          <>
            The timeline shows the scenario’s own settings. Move the slider (or press{' '}
            <kbd>{'{'}</kbd> / <kbd>{'}'}</kbd>) to replay it under a kernel’s design.
          </>
        )}
      </p>
      {h.progress && (
        <div className="run-status" role="status" aria-live="polite" data-history-progress>
          <span>
            Replaying under Linux {names[h.progress.index]} ({h.progress.index + 1} of{' '}
            {names.length})… {h.progress.events.toLocaleString('en-US')} events
          </span>
          <progress
            aria-label="Replaying the kernels"
            max={names.length}
            value={h.progress.index}
          />
          <button type="button" onClick={h.cancel}>
            Cancel
          </button>
        </div>
      )}
      {h.cancelled && (
        <p className="run-status" role="status">
          Stopped before every kernel ran.{' '}
          <button type="button" onClick={h.resume}>
            Run them
          </button>
        </p>
      )}
      <div className="history-body">
        <div className="history-table">
          <table>
            <caption>
              Each kernel’s run of this workload: under each figure its change from the kernel
              above, under each kernel the commit that made its step.
            </caption>
            <thead>
              <tr>
                <th scope="col">Kernel</th>
                {hasOps && <th scope="col">Op latency (mean)</th>}
                <th scope="col">Flush latency (mean)</th>
                <th scope="col">Preempt-off (max)</th>
                <th scope="col">IPIs</th>
                <th scope="col">Safety</th>
              </tr>
            </thead>
            {rows.map((r, i) => (
              <Row
                key={r.kernel}
                r={r}
                chosen={chosen?.index === i}
                onPick={() => pick(i)}
                ops={hasOps}
              />
            ))}
          </table>
        </div>
        <figure className="history-chart">
          <svg ref={chart} role="img" aria-label="Latency and preempt-off time by kernel" />
          <figcaption>
            {hasOps && <Key id="op" label="op latency" />}
            <Key id="flush" label="flush latency" />
            <Key id="preempt" label="max preempt-off" />
          </figcaption>
        </figure>
      </div>
      <p className="provenance" data-history-source>
        {historySource(scenario, machines, seed, workload)} Toggles no kernel here changes (the +1
        rule, lazy TLB, the ceiling) keep the scenario’s values; safety is the run’s invariant check
        (I1–I18), for this seed’s interleaving only.
      </p>
    </section>
  );
}
