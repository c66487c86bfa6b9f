// The label/value list of a run's summary, model or recording alike; a null value is a row the
// run has nothing for, and is left out.
export function SummaryRows({ rows }: { rows: readonly (readonly [string, string | null])[] }) {
  return (
    <dl>
      {rows
        .filter((r): r is readonly [string, string] => r[1] !== null)
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-summary={k.trim()}>{v}</dd>
          </div>
        ))}
    </dl>
  );
}
