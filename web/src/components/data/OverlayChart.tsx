// One benchmark metric: measured mean ± stddev per variant beside the model's prediction.
// React owns the <svg>; D3 (viz/measured.ts) draws into it.
import { useEffect, useRef } from 'react';
import { BENCHMARK_MODELS } from '../../content/benchmarks';
import { describeVerdict, NOISE_RULE, type OverlayChartModel } from '../../model/overlay';
import { renderMeasured, SERIES_SHAPE_NAMES } from '../../viz/measured';
import { download, fileNameOf } from '../../app/download';
import { exportChartSvg, SHAPE_GLYPHS } from '../../viz/exportChart';
import { svgToPng } from '../../viz/exportTimeline';
import type { LegendSwatch } from '../../viz/exportSvg';
import { ExportButtons } from '../ExportButtons';

export function OverlayChart({ chart }: { chart: OverlayChartModel }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current) renderMeasured(ref.current, chart, 460, 250);
  }, [chart]);
  const notes = [...new Set(chart.points.map((p) => describeVerdict(p.verdict, chart.unit)))];
  const predicted = chart.points.find((p) => p.prediction.status === 'done');
  const benchNotes = BENCHMARK_MODELS[chart.benchmark]?.notes;
  const exportAs = async (format: 'svg' | 'png') => {
    const el = ref.current;
    if (!el) return;
    const style = getComputedStyle(el);
    const legend: LegendSwatch[] = chart.series.map((s, i) => ({
      label: `measured on ${s.machine} (${s.source})`,
      swatch: 'glyph',
      glyph: SHAPE_GLYPHS[SERIES_SHAPE_NAMES[i % SERIES_SHAPE_NAMES.length]] ?? '●',
      color: style.getPropertyValue(`--measured-${i % SERIES_SHAPE_NAMES.length}`).trim(),
    }));
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
      el,
      {
        title: `${chart.benchmark} · ${chart.metric}: measured vs predicted`,
        caption: `Measured: ${chart.series.map((s) => `${s.machine} (${s.source})`).join('; ')}; bars ± 1 stddev of the runs, hollow marks have no stddev stated. Predicted: the tlbscope model, not measured. ${notes.join(' · ')}`,
        link,
      },
      legend,
    );
    const name = fileNameOf('tlbscope', chart.benchmark, chart.metric);
    if (format === 'svg') download(new Blob([out.svg], { type: 'image/svg+xml' }), `${name}.svg`);
    else download(await svgToPng(out, link), `${name}.png`);
  };
  return (
    <figure className="overlay-chart" data-benchmark={chart.benchmark} data-metric={chart.metric}>
      <figcaption>
        <strong>{chart.benchmark}</strong> · {chart.metric}{' '}
        <ExportButtons what={`the ${chart.benchmark} ${chart.metric} chart`} onExport={exportAs} />
      </figcaption>
      <svg
        ref={ref}
        role="img"
        aria-label={`${chart.benchmark} ${chart.metric}: measured vs predicted`}
      />
      <ul className="legend">
        {chart.series.map((s, i) => (
          <li key={s.label}>
            <span
              className={`shape shape-${SERIES_SHAPE_NAMES[i % SERIES_SHAPE_NAMES.length]}`}
              aria-hidden
            />
            measured on {s.machine} ({s.source})
          </li>
        ))}
        <li>bars: ± 1 stddev of the runs; hollow mark: no stddev stated</li>
        {predicted && predicted.prediction.status === 'done' && (
          <li>
            <span className="shape shape-x" aria-hidden />
            predicted by the tlbscope model ({predicted.prediction.scenario}, machine preset{' '}
            {predicted.prediction.preset}) — × on a dashed tick
          </li>
        )}
      </ul>
      <ul className="verdicts">
        {chart.points.map((p, i) => (
          <li key={i} data-verdict={p.verdict.kind}>
            <code>{p.measurement.variant}</code>
            {p.prediction.status === 'done' && p.prediction.aliased.length > 0 && (
              <> (modelled as {p.prediction.aliased.map((a) => a.to).join(', ')})</>
            )}{' '}
            on {p.measurement.machine}:{' '}
            <span title={NOISE_RULE}>{describeVerdict(p.verdict, chart.unit)}</span>
          </li>
        ))}
      </ul>
      {chart.notes.map((n) => (
        <p key={n} className="bench-notes">
          {n}
        </p>
      ))}
      {benchNotes && <p className="bench-notes">{benchNotes}</p>}
      {notes.some((n) => n.startsWith('within') || n.startsWith('outside')) && (
        <p className="noise-rule" title={NOISE_RULE}>
          Noise rule: |predicted − measured| ≤ 2 × stddev (hover for why).
        </p>
      )}
    </figure>
  );
}
