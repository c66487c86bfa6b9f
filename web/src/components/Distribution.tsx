// Latency distributions of the A and B runs as ECDFs; React owns the <svg>, D3 draws.
import { useEffect, useRef } from 'react';
import { durationsOf, ecdf } from '../model/compare';
import type { FlushMatch } from '../model/flushMatch';
import { EventKind, type Trace } from '../trace/trace';
import { renderEcdf } from '../viz/ecdf';

/**
 * Each flush's latency: the FlushRange rows' durations; for a run kept in its worker, the
 * same numbers from the flushes its worker sent for the match (null until they arrive).
 */
function latencies(t: Trace, match: FlushMatch | null, side: 'a' | 'b'): Float64Array | null {
  if (!t.remote) return durationsOf(t, EventKind.FlushRange);
  if (!match) return null;
  const out: number[] = [];
  for (const p of match.pairs) {
    const f = p[side];
    if (f) out.push(f.latency);
  }
  return Float64Array.from(out);
}

export function Distribution({ a, b, match }: { a: Trace; b: Trace; match: FlushMatch | null }) {
  const ref = useRef<SVGSVGElement>(null);
  const la = latencies(a, match, 'a');
  const lb = latencies(b, match, 'b');
  const ready = la !== null && lb !== null;
  useEffect(() => {
    if (!ref.current || !la || !lb) return;
    renderEcdf(
      ref.current,
      [
        { label: 'A', className: 'series-a', ...ecdf(la) },
        { label: 'B', className: 'series-b', ...ecdf(lb) },
      ],
      420,
      220,
      'flush_tlb_mm_range latency',
    );
    // la and lb follow from a, b and match.
  }, [a, b, match, ready]);
  return (
    <figure className="distribution">
      <svg ref={ref} role="img" aria-label="Flush latency distributions of A and B" />
      <figcaption>
        Share of flushes (y) finishing within a latency (x):{' '}
        <span className="series-a-key">A solid</span>,{' '}
        <span className="series-b-key">B dashed</span>.
        {!ready && ' Reading the flushes of the run kept in its worker…'}
      </figcaption>
    </figure>
  );
}
