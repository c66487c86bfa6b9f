// Latency distributions of the A and B runs as ECDFs; React owns the <svg>, D3 draws.
import { useEffect, useRef } from 'react';
import { durationsOf, ecdf } from '../model/compare';
import { EventKind, type Trace } from '../trace/trace';
import { renderEcdf } from '../viz/ecdf';

export function Distribution({ a, b }: { a: Trace; b: Trace }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    renderEcdf(
      ref.current,
      [
        { label: 'A', className: 'series-a', ...ecdf(durationsOf(a, EventKind.FlushRange)) },
        { label: 'B', className: 'series-b', ...ecdf(durationsOf(b, EventKind.FlushRange)) },
      ],
      420,
      220,
      'flush_tlb_mm_range latency',
    );
  }, [a, b]);
  return (
    <figure className="distribution">
      <svg ref={ref} role="img" aria-label="Flush latency distributions of A and B" />
      <figcaption>
        Share of flushes (y) finishing within a latency (x):{' '}
        <span className="series-a-key">A solid</span>,{' '}
        <span className="series-b-key">B dashed</span>.
      </figcaption>
    </figure>
  );
}
