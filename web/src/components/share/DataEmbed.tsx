// ?view=data&embed: one Measured-vs-predicted chart alone (its legend, a caption naming where
// the numbers come from), fitted to the frame, with buttons to the previous and next chart.
import { useEffect, useMemo } from 'react';
import { shippedDatasets, type Measurement } from '../../content/datasets';
import { bandToCome, chartGroups, chartsOf } from '../../model/overlay';
import { OverlayChart } from '../data/OverlayChart';
import { usePredictions } from '../data/usePredictions';
import { FitBox, FitLine } from './FitBox';
import '../data/data.css';
import './embed.css';

const NONE: readonly Measurement[] = [];

interface Props {
  /** The chart's id (benchmark · metric); null or unknown = the first. */
  chart: string | null;
  onChart: (id: string) => void;
  onIgnored: (what: string[]) => void;
  fullLink: string;
}

export function DataEmbed({ chart: wanted, onChart, onIgnored, fullLink }: Props) {
  const charts = useMemo(() => chartGroups(shippedDatasets.flatMap((d) => d.measurements)), []);
  const found = charts.findIndex(([id]) => id === wanted);
  const index = Math.max(0, found);
  // Only the shown chart's measurements are predicted: the model runs for the others (a thread
  // sweep takes seconds) would keep the frame busy for a chart nobody is looking at.
  const shown = charts[index];
  const predictionOf = usePredictions(shown?.[1] ?? NONE);
  const chart = shown ? chartsOf([shown], predictionOf)[0] : undefined;
  const unknown = wanted !== null && charts.length > 0 && found < 0;
  const first = charts[0]?.[0];
  useEffect(() => {
    if (unknown) onIgnored([`chart=${wanted}: no such chart; showing ${first}`]);
  }, [unknown, wanted, first, onIgnored]);
  if (!chart) return <p className="embed">No measured data to chart.</p>;
  // Drawn once its predictions and their bands are in: one chart's bands are a few runs.
  const pending = chart.points.some(
    (p) => p.verdict.kind === 'pending' || bandToCome(p.prediction),
  );
  const machines = [...new Set(chart.series.map((s) => s.machine))].join(', ');
  return (
    <div className="embed data-embed" data-state={pending ? 'busy' : 'idle'}>
      <FitLine className="embed-caption" minPx={10}>
        <strong data-embed-title>
          {chart.benchmark} · {chart.metric}
        </strong>
        <span className="embed-wide">
          {' '}
          · measured on {machines} ({chart.series.map((s) => s.source).join('; ')})
        </span>
        <span className="embed-narrow"> · measured</span>
        <span> vs predicted by the tlbscope model · </span>
        <a href={fullLink} target="_blank" rel="noreferrer">
          <span className="embed-wide">open in </span>tlbscope ↗
        </a>
      </FitLine>
      <FitBox className="embed-diagram">
        <OverlayChart chart={chart} />
      </FitBox>
      {charts.length > 1 && (
        <nav className="embed-controls" aria-label="Charts">
          <button
            type="button"
            onClick={() => onChart(charts[index - 1][0])}
            disabled={index === 0}
          >
            ← Previous chart
          </button>
          <span className="embed-step" aria-live="polite">
            Chart {index + 1} of {charts.length}
          </span>
          <button
            type="button"
            onClick={() => onChart(charts[index + 1][0])}
            disabled={index === charts.length - 1}
          >
            Next chart →
          </button>
        </nav>
      )}
    </div>
  );
}
