// The A and B summaries side by side with their difference.
import { diffSummaries } from '../model/compare';
import { NO_SAMPLES } from '../model/runWords';
import type { Summary } from '../trace/trace';
import { formatNs } from '../viz/scales';

/** `measuredA`: A is a kernel recording (what it measured), B the model's prediction. */
export function CompareSummary({
  a,
  b,
  measuredA,
}: {
  a: Summary;
  b: Summary;
  measuredA?: string;
}) {
  const rows = diffSummaries(a, b);
  const fmt = (v: number | null, unit: 'ns' | 'count', unknown?: string) =>
    v === null ? (unknown ?? NO_SAMPLES) : unit === 'ns' ? formatNs(v) : v.toLocaleString('en-US');
  return (
    <section className="compare-summary" aria-label="A/B comparison">
      <h2>A vs B</h2>
      <p className="provenance">
        {measuredA
          ? `A measured on a real kernel (${measuredA}); B predicted by the tlbscope model. For a recording, flush latency is a shootdown's time from its remote-IPI-send flush to its last ack or local flush, and the times cover the whole recording.`
          : 'Both predicted by the tlbscope model on the same workload and seed.'}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">B − A</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.metric} data-metric={r.metric}>
              <th scope="row">{r.metric}</th>
              <td>{fmt(r.a, r.unit, r.aUnknown)}</td>
              <td>{fmt(r.b, r.unit, r.bUnknown)}</td>
              <td data-delta={r.delta ?? undefined}>
                {r.delta === null
                  ? '–'
                  : r.delta === 0
                    ? 'same'
                    : `${r.delta > 0 ? '+' : '−'}${fmt(Math.abs(r.delta), r.unit)}`}
                {r.ratio !== null && r.delta !== 0
                  ? ` (${r.ratio > 0 ? '+' : '−'}${Math.abs(r.ratio * 100).toFixed(1)} %)`
                  : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
