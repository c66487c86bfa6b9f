// A/B at event level: every flush of A next to its match in B (model/flushMatch.ts), what
// differs between them in words, and buttons that select either side's flush.
import { memo, useState } from 'react';
import type { FlushDiff, FlushFacts, FlushMatch, FlushPair } from '../model/flushMatch';
import { formatNs } from '../viz/scales';
import { WithDocIds } from './DocId';

const LIMIT = 200;

const plural = (n: number, one: string) =>
  `${n} ${one}${n === 1 ? '' : one.endsWith('sh') ? 'es' : 's'}`;

/** One difference in words, B read against A. */
export function diffWords(d: FlushDiff): string {
  const ns = (v: FlushDiff['a']) => formatNs(Number(v));
  const by = () => {
    const delta = Number(d.b) - Number(d.a);
    return `${delta > 0 ? '+' : '−'}${formatNs(Math.abs(delta))} in B`;
  };
  switch (d.kind) {
    case 'only':
      return d.a ? 'only in A' : 'only in B';
    case 'start': {
      const delta = Number(d.b) - Number(d.a);
      return `starts ${formatNs(Math.abs(delta))} ${delta > 0 ? 'later' : 'earlier'} in B`;
    }
    case 'latency':
      return `latency ${ns(d.a)} → ${ns(d.b)} (${by()})`;
    case 'wait':
      return `${Number(d.b) > Number(d.a) ? 'extra' : 'shorter'} csd_lock_wait: ${ns(d.a)} → ${ns(d.b)}`;
    case 'preempt':
      return `preemption off ${ns(d.a)} → ${ns(d.b)}`;
    case 'ipis': {
      const delta = Number(d.b) - Number(d.a);
      return `${delta > 0 ? `${plural(delta, 'extra IPI')} in B` : `${plural(-delta, 'extra IPI')} in A`} (${d.a} → ${d.b})`;
    }
    case 'broadcasts':
      return `TLBI broadcasts ${d.a} → ${d.b}`;
    case 'violation':
      return d.a && d.b
        ? `violations differ: A ${d.a}, B ${d.b}`
        : `violation ${d.a ?? d.b} in ${d.a ? 'A' : 'B'} only`;
  }
}

function Side({
  f,
  side,
  selected,
  onSelect,
}: {
  f: FlushFacts | null;
  side: 'A' | 'B';
  selected: boolean;
  onSelect: (row: number) => void;
}) {
  if (!f) return <td className="muted">none</td>;
  return (
    <td>
      <button
        type="button"
        className="linklike"
        aria-pressed={selected}
        aria-label={`Show ${side}'s flush at ${formatNs(f.start)}`}
        onClick={() => onSelect(f.row)}
      >
        {formatNs(f.start)}
      </button>{' '}
      for {formatNs(f.latency)}
      {f.wait > 0 ? ` · wait ${formatNs(f.wait)}` : ''}
      {f.ipis ? ` · ${plural(f.ipis, 'IPI')}` : ''}
      {f.broadcasts ? ` · ${plural(f.broadcasts, 'broadcast')}` : ''}
      {f.violations.length ? (
        <>
          {' · ✕ '}
          <WithDocIds text={[...new Set(f.violations.map((v) => v.invariant))].join(' ')} />
        </>
      ) : null}
    </td>
  );
}

interface Props {
  match: FlushMatch;
  selectedA: number | null;
  selectedB: number | null;
  onSelectA: (row: number) => void;
  onSelectB: (row: number) => void;
}

export const FlushMatches = memo(function FlushMatches({
  match,
  selectedA,
  selectedB,
  onSelectA,
  onSelectB,
}: Props) {
  const { pairs } = match;
  const differing = pairs.filter((p) => p.diffs.length > 0);
  const [onlyDiffs, setOnlyDiffs] = useState(false);
  const shown = (onlyDiffs ? differing : pairs).slice(0, LIMIT);
  const inA = pairs.filter((p) => p.a).length;
  const inB = pairs.filter((p) => p.b).length;
  const both = pairs.filter((p) => p.a && p.b).length;
  const loose = (vs: { invariant: string }[]) => [...new Set(vs.map((v) => v.invariant))].join(' ');
  const isSel = (p: FlushPair) =>
    (p.a !== null && p.a.row === selectedA) || (p.b !== null && p.b.row === selectedB);
  return (
    <section className="flush-matches" aria-label="Matched flushes">
      <h2>Flush by flush</h2>
      <p className="muted" data-match-summary>
        {plural(inA, 'flush')} in A, {inB} in B; {both} matched by{' '}
        {match.by === 'cpu'
          ? "initiating CPU and order (a recording's mm ids are not the model's)"
          : 'CPU, mm and order'}
        ; {differing.length} differ. Dashed outlines on the timelines mark them.
      </p>
      {(match.unattributed.a.length > 0 || match.unattributed.b.length > 0) && (
        <p className="muted">
          Violations of no flush: A {loose(match.unattributed.a) || 'none'}, B{' '}
          {loose(match.unattributed.b) || 'none'}.
        </p>
      )}
      <label className="muted">
        <input
          type="checkbox"
          checked={onlyDiffs}
          onChange={(e) => setOnlyDiffs(e.target.checked)}
        />{' '}
        Only flushes that differ
      </label>
      <div className="match-scroll" tabIndex={0} role="region" aria-label="Flushes of A and B">
        <table>
          <thead>
            <tr>
              <th scope="col">Flush</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
              <th scope="col">What differs</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => (
              <tr
                key={p.key}
                data-pair={p.key}
                data-differs={p.diffs.length > 0 || undefined}
                className={[p.diffs.length ? 'differs' : '', isSel(p) ? 'selected' : '']
                  .join(' ')
                  .trim()}
              >
                <th scope="row">
                  {p.key}
                  {(p.a ?? p.b) && ` (${plural((p.a ?? p.b)!.pages, 'page')})`}
                </th>
                <Side f={p.a} side="A" selected={p.a?.row === selectedA} onSelect={onSelectA} />
                <Side f={p.b} side="B" selected={p.b?.row === selectedB} onSelect={onSelectB} />
                <td>
                  {p.diffs.length === 0 ? (
                    <span className="muted">same</span>
                  ) : (
                    <ul className="diff-list">
                      {p.diffs.map((d) => (
                        <li key={d.kind} data-diff={d.kind}>
                          {diffWords(d)}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(onlyDiffs ? differing : pairs).length > LIMIT && (
        <p className="muted">
          The first {LIMIT} of {(onlyDiffs ? differing : pairs).length} listed.
        </p>
      )}
    </section>
  );
});

/** Under the inspector: the selected event's flush and its match in the other run. */
export function MatchNote({
  match,
  side,
  row,
  onShow,
}: {
  match: FlushMatch;
  side: 'A' | 'B';
  row: number;
  /** Selects the other run's flush. */
  onShow: (row: number) => void;
}) {
  const flush = (side === 'A' ? match.flushOfA : match.flushOfB)[row] ?? -1;
  const p = flush >= 0 ? (side === 'A' ? match.pairOfA : match.pairOfB).get(flush) : undefined;
  if (p === undefined) return null;
  const pair = match.pairs[p];
  const other = side === 'A' ? 'B' : 'A';
  const them = side === 'A' ? pair.b : pair.a;
  return (
    <div className="match-note" data-match-note>
      <h3>In run {other}</h3>
      {them ? (
        <p>
          This is flush {pair.key}; its match in {other} starts at{' '}
          <button type="button" className="linklike" onClick={() => onShow(them.row)}>
            {formatNs(them.start)}
          </button>{' '}
          and takes {formatNs(them.latency)}.
        </p>
      ) : (
        <p>
          This is flush {pair.key}; {other} has no such flush.
        </p>
      )}
      {pair.diffs.length > 0 && them && (
        <ul className="diff-list">
          {pair.diffs.map((d) => (
            <li key={d.kind} data-diff={d.kind}>
              {diffWords(d)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
