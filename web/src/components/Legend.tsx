// What each mark means, for the kinds this run actually has. Every entry pairs a swatch with
// words, so nothing relies on colour alone.
import { memo, useMemo } from 'react';
import { legendEntries } from '../model/legend';
import { EventKind, type Trace } from '../trace/trace';

export const Legend = memo(function Legend({ trace }: { trace: Trace }) {
  const entries = useMemo(() => legendEntries(trace), [trace]);
  return (
    <ul className="legend" aria-label="Legend">
      {entries.map((e) =>
        e.mark === 'span' ? (
          <li key={e.kind}>
            <svg width="18" height="10" aria-hidden="true">
              <rect className={`span k-${EventKind[e.kind]}`} width="18" height="10" />
            </svg>
            {e.label}
          </li>
        ) : (
          <li key={e.mark}>
            <svg width="22" height="10" aria-hidden="true">
              <line className={`arrow arrow-${e.mark}`} x1="0" y1="5" x2="22" y2="5" />
            </svg>
            {e.label}
          </li>
        ),
      )}
    </ul>
  );
});
