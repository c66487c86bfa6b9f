// What each mark means, for the kinds the figure actually draws: every timeline in it (A and
// B) and a counterexample's numbered steps. Every entry pairs a swatch with words, so nothing
// relies on colour alone.
import { memo, useMemo } from 'react';
import {
  drawnKinds,
  kindsIn,
  legendOfFigure,
  type DrawnKinds,
  type LegendEntry,
  type StepBadge,
} from '../model/legend';
import type { StepMark } from '../model/check';
import { useRunFacts } from '../app/useRemoteRun';
import { BANDS, bandOf } from '../model/markShape';
import { CROSS } from '../viz/marks/violations';
import { DATA_KIND } from '../viz/marks/arrows';
import { EventKind, type Trace } from '../trace/trace';

export const Legend = memo(function Legend({
  trace,
  also,
  steps,
  magnify,
}: {
  trace: Trace;
  /** The other timeline of an A/B figure. */
  also?: Trace | null;
  /** A counterexample's numbered steps drawn on the timeline. */
  steps?: readonly StepMark[] | null;
  /** A step's stretch drawn enlarged (Step.magnify), whose inset may draw more kinds. */
  magnify?: readonly [number, number] | null;
}) {
  const a = useDrawnKinds(trace, trace);
  // Without a B side, its hook asks after A again (answered from the same shared question).
  const b = useDrawnKinds(also ?? null, also ?? trace);
  const entries = useMemo(() => {
    // A run kept in its worker answers once its facts arrive: until then, no legend rather
    // than one that leaves its marks out.
    if (!a || (also && !b)) return [];
    // The magnifier draws only page-held runs' rows.
    const magnified = new Set<number>();
    for (const t of [trace, also])
      if (t && !t.remote) for (const k of kindsIn(t, magnify)) magnified.add(k);
    return legendOfFigure(b ? [a, b] : [a], steps ?? [], magnified);
  }, [a, b, trace, also, steps, magnify]);
  return <Entries entries={entries} />;
});

/** What a timeline of `trace` can draw: counted here, or by its worker for a run kept there. */
function useDrawnKinds(trace: Trace | null, asked: Trace): DrawnKinds | null {
  const local = useMemo(() => (trace && !trace.remote ? drawnKinds(trace) : null), [trace]);
  // For a page-held trace this asks nothing.
  const facts = useRunFacts(asked);
  const remote = useMemo(
    () => (facts ? { kinds: new Set(facts.kinds), unpaired: facts.unpaired } : null),
    [facts],
  );
  if (!trace) return null;
  return trace.remote ? remote : local;
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
        if (e.mark === 'step') {
          return (
            <li key={`step-${e.step}`} data-legend-kind={`cx-step-${e.step}`}>
              <StepSwatch step={e.step} />
              {e.label}
            </li>
          );
        }
        return (
          <li key={e.mark} data-legend-kind={DATA_KIND[e.mark]}>
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

/** A numbered badge as the timeline draws it (same classes, so the same colours). */
function StepSwatch({ step }: { step: StepBadge }) {
  const cls = step === 'plain' ? 'cx-step' : `cx-step ${step}`;
  return (
    <svg width="18" height="18" viewBox="-9 -9 18 18" aria-hidden="true">
      <g className={cls}>
        <circle r="8" />
        <text y="3.5">{step === 'violation' ? '!' : 'n'}</text>
      </g>
    </svg>
  );
}
