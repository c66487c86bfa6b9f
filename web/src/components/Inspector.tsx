// What the selected event is, the kernel function it models, and the chain of events that
// caused it (munmap → flush_tlb_mm_range → IPI → flush_tlb_func → ack).
import { memo, useEffect, useState, type ReactNode } from 'react';
import { causalChain, describeRow, kernelFunction } from '../model/events';
import { kindName, toTrace, type Trace } from '../trace/trace';
import { formatNs } from '../viz/scales';
import { traceWindowOf } from '../workers/session';

interface Props {
  trace: Trace;
  selected: number | null;
  cursor: number | null;
  onSelect: (row: number) => void;
  /** A/B: which run the selected event is from. */
  side?: 'A' | 'B';
  /** A/B: the selected event's flush next to its match in the other run. */
  children?: ReactNode;
}

/** The inspector of `trace`'s selected row, asked of its worker when the run stays there. */
export function Inspector(props: Props) {
  return props.trace.remote ? <RemoteInspector {...props} /> : <LocalInspector {...props} />;
}

/**
 * A remote run's selected row and its causes, as its worker reads them (the page holds none
 * of its rows): shown as a small trace of the chain alone, parents pointing within it.
 */
function RemoteInspector(props: Props) {
  const { trace, selected, onSelect } = props;
  const [chain, setChain] = useState<{ rows: Int32Array; trace: Trace; of: number } | null>(null);
  useEffect(() => {
    const client = traceWindowOf(trace);
    if (selected === null || !client) return;
    let live = true;
    client
      .chain(selected)
      .then((c) => {
        if (!live || !c) return;
        const local = new Map(Array.from(c.rows, (r, i) => [r, i]));
        const parent = Int32Array.from(c.columns.parent, (p) => local.get(p) ?? -1);
        const mini = toTrace({
          ...c.columns,
          parent,
          cpus: trace.cpus,
          strings: [...trace.strings],
        });
        setChain({ rows: c.rows, trace: mini, of: selected });
      })
      .catch(() => live && setChain(null));
    return () => {
      live = false;
    };
  }, [trace, selected]);
  const shown = chain && chain.of === selected ? chain : null;
  return (
    <LocalInspector
      {...props}
      trace={shown?.trace ?? trace}
      selected={shown ? shown.rows.length - 1 : null}
      onSelect={(i) => shown && onSelect(shown.rows[i])}
    />
  );
}

const LocalInspector = memo(function LocalInspector({
  trace,
  selected,
  cursor,
  onSelect,
  side,
  children,
}: Props) {
  return (
    <section className="inspector" aria-label="Inspector" data-side={side}>
      <h2>Inspector{side ? `: run ${side}` : ''}</h2>
      <p className="muted">
        Cursor: {cursor === null ? 'none (click the timeline)' : formatNs(cursor)}
      </p>
      {selected === null || selected >= trace.n ? (
        <p className="muted">
          Select an event on the timeline or in the log to see what caused it.
        </p>
      ) : (
        <>
          <dl>
            <dt>Event</dt>
            <dd data-inspector="kind">{kindName(trace.kind[selected])}</dd>
            <dt>Kernel function</dt>
            <dd data-inspector="function">
              <code>{kernelFunction(trace.kind[selected])}</code>
            </dd>
            <dt>When</dt>
            <dd>
              {formatNs(trace.time[selected])}
              {trace.dur[selected] > 0 ? ` for ${formatNs(trace.dur[selected])}` : ''} on CPU{' '}
              {trace.cpu[selected]}
            </dd>
            <dt>mm / ASID / gen</dt>
            <dd>
              {trace.mm[selected]} / {trace.asid[selected]} / {trace.gen[selected]}
            </dd>
          </dl>
          <h3>Causal chain</h3>
          <ol className="chain" data-inspector="chain">
            {causalChain(trace, selected).map((i) => (
              <li key={i}>
                <button
                  type="button"
                  className="linklike"
                  onClick={() => onSelect(i)}
                  aria-current={i === selected}
                >
                  <code>{kernelFunction(trace.kind[i])}</code>
                </button>{' '}
                {describeRow(trace, i)} at {formatNs(trace.time[i])}
              </li>
            ))}
          </ol>
          {children}
        </>
      )}
    </section>
  );
});
