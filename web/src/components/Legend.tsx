// What each mark means, for the kinds this run actually has. Every entry pairs a swatch with
// words, so nothing relies on colour alone.
import { memo, useMemo } from 'react';
import { legendEntries, legendOfKinds, type LegendEntry } from '../model/legend';
import { useRunFacts } from '../app/useRemoteRun';
import { BANDS, bandOf } from '../model/markShape';
import { CROSS } from '../viz/marks/violations';
import { EventKind, type Trace } from '../trace/trace';

export const Legend = memo(function Legend({ trace }: { trace: Trace }) {
  return trace.remote ? <RemoteLegend trace={trace} /> : <LocalLegend trace={trace} />;
});

function LocalLegend({ trace }: { trace: Trace }) {
  const entries = useMemo(() => legendEntries(trace), [trace]);
  return <Entries entries={entries} />;
}

/** A run kept in its worker: the kinds it has and its unpaired sends, counted there. */
function RemoteLegend({ trace }: { trace: Trace }) {
  const facts = useRunFacts(trace);
  const entries = useMemo(
    () => (facts ? legendOfKinds(new Set(facts.kinds), facts.unpaired) : []),
    [facts],
  );
  return <Entries entries={entries} />;
}

function Entries({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <ul className="legend" aria-label="Legend">
      {entries.map((e) => {
        if (e.mark === 'span') {
          // The bar in its band of a lane-high box: the same shape as on the timeline.
          const [t, b] = BANDS[bandOf(e.kind)];
          return (
            <li key={e.kind} data-legend-kind={EventKind[e.kind]}>
              <svg width="18" height="10" aria-hidden="true">
                <rect className="legend-lane" width="18" height="10" />
                <rect
                  className={`span k-${EventKind[e.kind]}`}
                  y={t * 10}
                  width="18"
                  height={(b - t) * 10}
                />
              </svg>
              {e.label}
            </li>
          );
        }
        if (e.mark === 'violation') {
          return (
            <li key={e.mark} data-legend-kind="InvariantViolated">
              <svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true">
                <g className="violation">
                  <path d={CROSS} />
                </g>
              </svg>
              {e.label}
            </li>
          );
        }
        return (
          <li key={e.mark}>
            <svg width="22" height="10" aria-hidden="true">
              <line className={`arrow arrow-${e.mark}`} x1="0" y1="5" x2="22" y2="5" />
            </svg>
            {e.label}
          </li>
        );
      })}
    </ul>
  );
}
