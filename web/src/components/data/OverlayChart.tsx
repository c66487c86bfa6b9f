// One benchmark metric: measured mean ± stddev per variant beside the model's prediction, one
// panel per series (a source on a machine) with its own axis, optionally on a log scale or as
// each variant's difference from the first. React owns the <svg>s; D3 (viz/measured.ts)
// draws into them at the card's width.
import { useEffect, useMemo, useRef, useState } from 'react';
import { BENCHMARK_MODELS } from '../../content/benchmarks';
import {
  describeVerdict,
  formatValue,
  NOISE_RULE,
  type OverlayChartModel,
  type OverlayPoint,
} from '../../model/overlay';
import { formatBand } from '../../model/band';
import { canShowDifference, panelsOf, type Panel, type PanelMode } from '../../model/panels';
import { renderPanel, SERIES_SHAPE_NAMES } from '../../viz/measured';
import { binPanel, describeBinning, MAX_POINTS } from '../../model/bins';
import { renderBinnedPanel } from '../../viz/measuredBins';
import { download, fileNameOf } from '../../app/download';
import { exportChartSvg, SHAPE_GLYPHS } from '../../viz/exportChart';
import { svgToPng } from '../../viz/exportTimeline';
import type { LegendSwatch } from '../../viz/exportSvg';
import { ExportButtons } from '../ExportButtons';

const PANEL_HEIGHT = 230;

/**
 * Verdicts listed under a chart (as many as a panel draws point by point, so a chart that is
 * not binned lists them all); the rest are counted, so 20,000 variants are not 20,000 items.
 */
export const SHOWN_VERDICTS = MAX_POINTS;

function PanelSvg({
  panel,
  metric,
  width,
  log,
}: {
  panel: Panel;
  metric: string;
  width: number;
  log: boolean;
}) {
  const ref = useRef<SVGSVGElement>(null);
  const binned = useMemo(() => binPanel(panel), [panel]);
  useEffect(() => {
    if (!ref.current || width <= 0) return;
    if (binned) renderBinnedPanel(ref.current, panel, binned, width, PANEL_HEIGHT, metric);
    else renderPanel(ref.current, panel, width, PANEL_HEIGHT, { metric, log });
  }, [panel, binned, metric, width, log]);
  return (
    <figure className="panel" data-series={panel.series}>
      <figcaption>
        <span
          className={`shape shape-${SERIES_SHAPE_NAMES[panel.series % SERIES_SHAPE_NAMES.length]}`}
          aria-hidden
        />{' '}
        {panel.title}
        {panel.reference && (
          <>
            {' '}
            — % difference from <code>{panel.reference}</code>
          </>
        )}
      </figcaption>
      <svg ref={ref} role="img" aria-label={`${metric}, ${panel.title}: measured vs predicted`} />
      {binned && (
        <p className="limit-note" data-testid="binned-note">
          {describeBinning(binned)}
          {log ? ' The log scale is not offered for bins.' : ''}
        </p>
      )}
    </figure>
  );
}

export function OverlayChart({ chart }: { chart: OverlayChartModel }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [mode, setMode] = useState<PanelMode>('values');
  const [log, setLog] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const panels = useMemo(() => panelsOf(chart, mode), [chart, mode]);
  const listed = chart.points.slice(0, SHOWN_VERDICTS);
  const unlisted = chart.points.length - listed.length;
  const notes = [...new Set(chart.points.map((p) => describeVerdict(p.verdict, chart.unit)))];
  const predicted = chart.points.find((p) => p.prediction.status === 'done');
  // The widest band, as how far it reaches below and above its prediction (null: no band yet).
  const widestPoint = chart.points.reduce<OverlayPoint | null>(
    (w, p) =>
      p.band &&
      p.predicted &&
      p.band[0] > 0 &&
      (!w || p.band[1] / p.band[0] > w.band![1] / w.band![0])
        ? p
        : w,
    null,
  );
  const widest =
    widestPoint &&
    formatBand({
      low: widestPoint.band![0],
      central: widestPoint.predicted!,
      high: widestPoint.band![1],
    });
  const benchNotes = BENCHMARK_MODELS[chart.benchmark]?.notes;
  const name = `${chart.benchmark}-${chart.metric}`;
  const exportAs = async (format: 'svg' | 'png') => {
    const svgs = Array.from(box.current?.querySelectorAll('svg') ?? []);
    if (!svgs.length) return;
    const style = getComputedStyle(svgs[0]!);
    const legend: LegendSwatch[] = chart.series.map((s, i) => ({
      label: `measured on ${s.machine} (${s.source})`,
      swatch: 'glyph',
      glyph: SHAPE_GLYPHS[SERIES_SHAPE_NAMES[i % SERIES_SHAPE_NAMES.length]!] ?? '●',
      color: style.getPropertyValue(`--measured-${i % SERIES_SHAPE_NAMES.length}`).trim(),
    }));
    if (widest) {
      legend.push({
        label: `band: the model with every estimated cost at the low and at the high end of its range (the widest reaches ${widest} of its prediction)`,
        swatch: 'glyph',
        glyph: '▮',
        color: style.getPropertyValue('--predicted').trim(),
      });
    }
    if (predicted && predicted.prediction.status === 'done') {
      legend.push({
        label: `predicted by the tlbscope model (${predicted.prediction.scenario}, machine preset ${predicted.prediction.preset})`,
        swatch: 'glyph',
        glyph: '×',
        color: style.getPropertyValue('--predicted').trim(),
      });
    }
    const link = window.location.href;
    const out = exportChartSvg(
      svgs,
      {
        title: `${chart.benchmark} · ${chart.metric}: measured vs predicted`,
        caption: `Measured: ${chart.series.map((s) => `${s.machine} (${s.source})`).join('; ')}; one panel per source and machine, each on its own axis; bars ± 1 stddev of the runs, hollow marks have no stddev stated. Predicted: the tlbscope model, not measured. ${notes.slice(0, SHOWN_VERDICTS).join(' · ')}${notes.length > SHOWN_VERDICTS ? ` · and ${notes.length - SHOWN_VERDICTS} more verdicts` : ''}`,
        link,
      },
      legend,
    );
    const file = fileNameOf('tlbscope', chart.benchmark, chart.metric);
    if (format === 'svg') download(new Blob([out.svg], { type: 'image/svg+xml' }), `${file}.svg`);
    else download(await svgToPng(out, link), `${file}.png`);
  };
  return (
    <figure className="overlay-chart" data-benchmark={chart.benchmark} data-metric={chart.metric}>
      <figcaption>
        <strong>{chart.benchmark}</strong> · {chart.metric}{' '}
        <ExportButtons what={`the ${chart.benchmark} ${chart.metric} chart`} onExport={exportAs} />
      </figcaption>
      <div className="chart-options" role="group" aria-label={`${chart.benchmark} axis`}>
        {canShowDifference(chart) && (
          <>
            <label>
              <input
                type="radio"
                name={`${name}-mode`}
                checked={mode === 'values'}
                onChange={() => setMode('values')}
              />{' '}
              values
            </label>
            <label>
              <input
                type="radio"
                name={`${name}-mode`}
                checked={mode === 'difference'}
                onChange={() => setMode('difference')}
              />{' '}
              % difference from the first variant
            </label>
          </>
        )}
        <label>
          <input
            type="checkbox"
            checked={log}
            disabled={mode === 'difference'}
            onChange={(e) => setLog(e.target.checked)}
          />{' '}
          log scale
        </label>
      </div>
      <div className="panels" ref={box}>
        {panels.map((p) => (
          <PanelSvg
            key={p.series}
            panel={p}
            metric={chart.metric}
            width={width}
            log={log && mode === 'values'}
          />
        ))}
      </div>
      <ul className="legend">
        <li>one panel per source and machine, each on its own axis</li>
        {chart.points.some((p) => p.fitted !== null) && (
          <li data-testid="fitted-legend">
            dashed line: the machine fitted to this dataset (Fit a machine preset), per variant
          </li>
        )}
        <li>bars: ± 1 stddev of the runs; hollow mark: no stddev stated</li>
        {predicted && predicted.prediction.status === 'done' && (
          <li>
            <span className="shape shape-x" aria-hidden />
            predicted by the tlbscope model ({predicted.prediction.scenario}, machine preset{' '}
            {predicted.prediction.preset}) —{' '}
            {panels.some((p) => p.sweep)
              ? `× on the model's curve, at each measured value of ${panels.find((p) => p.sweep)!.sweep!.key}`
              : '× right of each measurement'}
          </li>
        )}
        {widest && (
          <li data-testid="band-legend">
            shaded: the model&apos;s band, run with every estimated cost at the low and at the high
            end of its range (the widest reaches {widest} of its prediction); a small ▲ or ▼ at the
            chart&apos;s edge: the band goes on beyond it
          </li>
        )}
      </ul>
      <ul className="verdicts">
        {listed.map((p, i) => (
          <li key={i} data-verdict={p.verdict.kind}>
            <code>{p.measurement.variant}</code>
            {p.prediction.status === 'done' && p.prediction.aliased.length > 0 && (
              <> (modelled as {p.prediction.aliased.map((a) => a.to).join(', ')})</>
            )}{' '}
            on {p.measurement.machine}:{' '}
            <span title={NOISE_RULE}>{describeVerdict(p.verdict, chart.unit)}</span>
            {p.band && (
              <span data-band={inBand(p) ? 'inside' : 'outside'}>
                {' '}
                · measured {inBand(p) ? 'inside' : 'outside'} the model&apos;s band (
                {formatValue(p.band[0], chart.unit)} to {formatValue(p.band[1], chart.unit)})
              </span>
            )}
          </li>
        ))}
        {unlisted > 0 && (
          <li data-testid="verdicts-more">
            and {unlisted.toLocaleString('en-US')} more (the first{' '}
            {SHOWN_VERDICTS.toLocaleString('en-US')} are listed; hover a chart&apos;s bars for the
            rest)
          </li>
        )}
      </ul>
      {chart.notes.slice(0, SHOWN_VERDICTS).map((n) => (
        <p key={n} className="bench-notes">
          {n}
        </p>
      ))}
      {chart.notes.length > SHOWN_VERDICTS && (
        <p className="bench-notes">
          and {(chart.notes.length - SHOWN_VERDICTS).toLocaleString('en-US')} more notes like these.
        </p>
      )}
      {benchNotes && <p className="bench-notes">{benchNotes}</p>}
      {notes.some((n) => n.startsWith('within') || n.startsWith('outside')) && (
        <p className="noise-rule" title={NOISE_RULE}>
          Noise rule: |predicted − measured| ≤ 2 × stddev (hover for why).
        </p>
      )}
    </figure>
  );
}

function inBand(p: OverlayPoint): boolean {
  return p.band !== null && p.band[0] <= p.value && p.value <= p.band[1];
}
