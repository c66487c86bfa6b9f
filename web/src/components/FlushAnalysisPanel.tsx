// "Why was each flush slow?": the auto-analysis of a run's shootdowns (model/flushAnalysis.ts)
// under the summary, for A and, comparing, B beside it, so a recording and its model are read
// part by part. Folded until opened: it is a pass over the whole run, a slice at a time with
// progress and a Cancel for a large one (useBackgroundAnalysis.ts: in the worker that keeps a
// run, between frames for one the page holds). A flush's button selects it and closes the
// timeline's window in on it (the explorer's onSelect).
import { memo, useMemo, useState } from 'react';
import {
  analyzeFlushes,
  PART_WORDS,
  partShort,
  type FlushAnalysis,
  type Percentiles,
} from '../model/flushAnalysis';
import type { FlushBreakdown, PartName } from '../model/flushBreakdown';
import { irqsBounded, isRecorded } from '../recording/asRun';
import type { RunResult } from '../sim/run';
import { formatNs } from '../viz/scales';
import './flushAnalysis.css';
import { AT_ONCE_ROWS } from '../workers/analysisJob';
import { useBackgroundAnalysis } from './useBackgroundAnalysis';

const TOP = 5;

interface Side {
  label: 'A' | 'B';
  run: RunResult;
  /** A flush chosen: its row, and its parts for the timeline to bracket. */
  onSelect: (row: number, flush: FlushBreakdown) => void;
}

export const FlushAnalysisPanel = memo(function FlushAnalysisPanel({
  sides,
}: {
  sides: readonly Side[];
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="flush-analysis"
      open={open}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary>
        <h2>Why was each flush slow?</h2>
      </summary>
      {open && (
        <div className="flush-analysis-sides">
          {sides.map((s) => (
            <SideAnalysis key={s.label} side={s} labelled={sides.length > 1} />
          ))}
        </div>
      )}
    </details>
  );
});

function SideAnalysis({ side, labelled }: { side: Side; labelled: boolean }) {
  const { run } = side;
  const recorded = isRecorded(run);
  // A recording without irq_disable/irq_enable events does not say whether interrupts were on.
  const irqsKnown = irqsBounded(run);
  // A kept recording's names travel with it; a page-held one's are in its extras.
  const tasks = recorded ? (run.recording.extras.tasks ?? null) : null;
  // A small run at once; a large one a slice at a time, in its worker or between frames.
  const page = useMemo(
    () =>
      run.trace.remote || run.trace.n > AT_ONCE_ROWS
        ? null
        : analyzeFlushes(run.trace, TOP, { irqsKnown, ...(tasks ? { tasks } : {}) }),
    [run.trace, irqsKnown, tasks],
  );
  const ask = useMemo(() => ({ top: TOP, irqsKnown, tasks }), [irqsKnown, tasks]);
  const worker = useBackgroundAnalysis(run.trace, ask);
  const title = labelled ? `${side.label}: ${recorded ? 'recorded' : 'model'}` : null;
  const w = worker.state;
  const a = page ?? (w?.status === 'done' ? w.analysis : null);
  if (!a) {
    return (
      <section aria-label={`Flush analysis ${side.label}`} data-analysis-state={w?.status}>
        {title && <h3>{title}</h3>}
        {w?.status === 'running' && (
          <p className="analysis-progress">
            <label>
              Reading the run in its worker: <progress max={w.total} value={w.rows} />{' '}
              {w.rows.toLocaleString('en-US')} of {w.total.toLocaleString('en-US')} rows
            </label>{' '}
            <button type="button" onClick={worker.cancel}>
              Cancel
            </button>
          </p>
        )}
        {w?.status === 'cancelled' && (
          <p>
            Cancelled.{' '}
            <button type="button" onClick={worker.again}>
              Analyse again
            </button>
          </p>
        )}
        {w?.status === 'failed' && (
          <p role="alert">
            The analysis stopped: {w.message}.{' '}
            <button type="button" onClick={worker.again}>
              Try again
            </button>
          </p>
        )}
      </section>
    );
  }
  return (
    <section aria-label={`Flush analysis ${side.label}`} data-analysis={side.label}>
      {title && <h3>{title}</h3>}
      <p className="provenance">
        {a.flushes.toLocaleString('en-US')} flush{a.flushes === 1 ? '' : 'es'},{' '}
        {a.withIpis.toLocaleString('en-US')} with IPIs; latency {pctWords(a.latency)}.{' '}
        {recorded
          ? 'Measured: parts the recording lacks events for are unknown.'
          : 'Predicted by the model.'}
      </p>
      {a.slowest.length > 0 && (
        <div className="analysis-scroll">
          <table className="analysis-slowest">
            <caption>The slowest {a.slowest.length}, each cut into its critical path</caption>
            <thead>
              <tr>
                <th scope="col">Flush</th>
                <th scope="col">Latency</th>
                <th scope="col">Its parts</th>
                <th scope="col">Dominant part, and why</th>
              </tr>
            </thead>
            <tbody>
              {a.slowest.map((b) => (
                <tr key={b.row} data-flush-row={b.row}>
                  <td>
                    <button
                      type="button"
                      className="linklike"
                      aria-label={`Show ${side.label}'s flush on CPU ${b.cpu} at ${formatNs(b.start)}`}
                      onClick={() => side.onSelect(b.row, b)}
                    >
                      CPU {b.cpu} at {formatNs(b.start)}
                    </button>
                  </td>
                  <td>{formatNs(b.latency)}</td>
                  <td>
                    <ul className="analysis-parts">
                      {b.path.map((p) => (
                        <li key={p.name} data-part={p.name}>
                          {partShort(p)} {p.ns === null ? 'unknown' : formatNs(p.ns)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-why>{b.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PartsTable parts={a.parts} />
      <LastToAck a={a} />
    </section>
  );
}

function PartsTable({ parts }: { parts: FlushAnalysis['parts'] }) {
  const rows = (Object.entries(parts) as [PartName, Percentiles | null][]).filter(([, p]) => p);
  if (!rows.length) return null;
  return (
    <div className="analysis-scroll">
      <table className="analysis-parts-all">
        <caption>Each part over all flushes where it is on the path</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col">p50</th>
            <th scope="col">p99</th>
            <th scope="col">max</th>
            <th scope="col">flushes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, p]) => (
            <tr key={name}>
              <th scope="row">{PART_WORDS[name]}</th>
              <td>{formatNs(p!.p50)}</td>
              <td>{formatNs(p!.p99)}</td>
              <td>{formatNs(p!.max)}</td>
              <td>{p!.samples.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LastToAck({ a }: { a: FlushAnalysis }) {
  if (!a.lastToAck.length) return null;
  return (
    <>
      <h4>Last to ack, and what held the IPI to it</h4>
      <ul className="analysis-last" aria-label="Last to ack per CPU">
        {a.lastToAck.map((c) => (
          <li key={c.cpu} data-cpu={c.cpu}>
            CPU {c.cpu}: {c.last} of {a.withIpis}
            {Object.entries(c.by)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => ` · ${CAUSES[k as keyof typeof CAUSES]} ${n}`)
              .join('')}
          </li>
        ))}
      </ul>
    </>
  );
}

const CAUSES = {
  'irqs-off': 'interrupts off',
  handler: 'in another handler',
  idle: 'idle',
  delivery: 'delivery itself',
  unknown: 'not in the trace',
};

function pctWords(p: Percentiles | null): string {
  if (!p) return 'unknown';
  return `p50 ${formatNs(p.p50)}, p99 ${formatNs(p.p99)}, max ${formatNs(p.max)}`;
}
