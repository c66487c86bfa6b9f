// The Data view: measured numbers (shipped and imported) with provenance, next to the model's
// predictions. Everything happens in the browser; an import never leaves the page.
import { startTransition, useEffect, useMemo, useState } from 'react';
import { openDatasetStore } from '../../content/datasetStore';
import { shippedDatasets, type Dataset, type Measurement } from '../../content/datasets';
import type { Fitted } from '../../workers/fitSession';
import { bandToCome, chartGroups, chartsOf } from '../../model/overlay';
import { DatasetTable } from './DatasetTable';
import { FitPanel } from './FitPanel';
import { ImportPanel } from './ImportPanel';
import { KeptList, listOnlyOnOpen } from './KeptList';
import { OverlayChart } from './OverlayChart';
import { usePredictions } from './usePredictions';
import './data.css';

/** Charts drawn at once (each is an SVG with its own legend and verdicts). */
export const MAX_CHARTS = 24;

export function DataView() {
  const [imported, setImported] = useState<Dataset[]>([]);
  const store = useMemo(() => openDatasetStore(), []);
  const [storeProblem, setStoreProblem] = useState<string | null>(null);
  // Kept files listed by name only, not drawn (see KeptList.tsx); empty once the reader asks.
  const [listed, setListed] = useState<ReadonlySet<string>>(new Set());
  // Files whose save has not committed yet: until it has, a reload would lose them, so the
  // page does not yet say they are kept.
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const marked = (file: string, on: boolean) =>
    setSaving((now) => {
      const next = new Set(now);
      if (on) next.add(file);
      else next.delete(file);
      return next;
    });
  const kept = (what: string) => (e: unknown) =>
    setStoreProblem(`Imports are not kept after this visit (${what}: ${String(e)}).`);
  useEffect(() => {
    let live = true;
    store
      .list()
      .then((list) => {
        // An import made before the list arrived wins over its kept copy.
        if (!live) return;
        if (listOnlyOnOpen(list)) setListed(new Set(list.map((d) => d.file)));
        setImported((now) => [...list.filter((d) => !now.some((x) => x.file === d.file)), ...now]);
      })
      .catch(kept('reading them back'));
    return () => {
      live = false;
    };
  }, [store]);
  const add = (d: Dataset) => {
    // A transition, so React draws the new charts and tables in slices between which the page
    // still answers; saving is its own task for the same reason (see datasetStore.ts).
    startTransition(() => setImported((list) => [...list.filter((x) => x.file !== d.file), d]));
    unlist(d.file);
    marked(d.file, true);
    setTimeout(
      () =>
        store
          .put(d)
          .catch(kept('saving'))
          .finally(() => marked(d.file, false)),
      0,
    );
  };
  const keepFit = (d: Dataset, fit: unknown) => {
    const next = { ...d, fit };
    setImported((list) => list.map((x) => (x.file === d.file ? next : x)));
    store.put(next).catch(kept('saving'));
  };
  const unlist = (file: string) =>
    setListed((now) => {
      if (!now.has(file)) return now;
      const next = new Set(now);
      next.delete(file);
      return next;
    });
  const remove = (d: Dataset) => {
    // Dropped once the delete has committed (a few ms), so a reload straight after the card
    // goes cannot bring it back; a failed delete drops it for this visit and says why.
    store
      .remove(d.file)
      .catch(kept('removing'))
      .finally(() => {
        setImported((list) => list.filter((x) => x !== d));
        unlist(d.file);
      });
  };
  const drawn = useMemo(() => imported.filter((d) => !listed.has(d.file)), [imported, listed]);
  const datasets = useMemo(() => [...shippedDatasets, ...drawn], [drawn]);
  const measurements = useMemo(() => datasets.flatMap((d) => d.measurements), [datasets]);
  // Drawn charts are capped: a file with 20 k distinct series would otherwise draw 20 k charts
  // and plan 20 k model runs. Only the shown groups' measurements are planned and predicted.
  const groups = useMemo(() => chartGroups(measurements), [measurements]);
  const shown = useMemo(() => groups.slice(0, MAX_CHARTS), [groups]);
  const charted = useMemo(() => shown.flatMap(([, ms]) => ms), [shown]);
  const predictionOf = usePredictions(charted);
  // Each kept fit's prediction per measured row, drawn as the fitted curve on the charts.
  const fittedNs = useMemo(() => {
    const out = new Map<Measurement, number>();
    for (const d of drawn) {
      const fit = d.fit as Fitted | undefined;
      if (!fit) continue;
      const byRow = new Map(fit.result.residuals.map((r) => [`${r.line}:${r.metric}`, r]));
      for (const m of d.measurements) {
        const r = byRow.get(`${m.rows[0]}:${m.metric}`);
        if (r && r.variant === m.variant) out.set(m, r.predicted_ns);
      }
    }
    return out;
  }, [drawn]);
  const charts = chartsOf(shown, predictionOf, (m) => fittedNs.get(m) ?? null);
  const pending = charts.some((c) => c.points.some((p) => p.verdict.kind === 'pending'));
  // The bands' runs come after every prediction's: the charts are read meanwhile, and the
  // bands fill in (`data-bands` says when they all have).
  const predictions = new Set(
    charts.flatMap((c) => c.points.map((p) => p.prediction)).filter((p) => p.status === 'done'),
  );
  const bandsToCome = [...predictions].filter(bandToCome).length;

  return (
    <div
      className="data-view"
      data-state={pending ? 'busy' : 'idle'}
      data-bands={pending || bandsToCome > 0 ? 'running' : 'done'}
    >
      <section className="intro">
        <h2>Measured data and the model</h2>
        <p>
          Numbers measured on real machines — transcribed from the patch mails or run with the
          project&apos;s benchmark kit — beside what the tlbscope model predicts for the same
          variant. Every number names its machine, source and runs; hover a mark for details.
        </p>
      </section>
      {listed.size > 0 && (
        <KeptList
          datasets={imported.filter((d) => listed.has(d.file))}
          onRemove={remove}
          onDraw={() => startTransition(() => setListed(new Set()))}
        />
      )}
      <section aria-labelledby="overlays-h">
        <h3 id="overlays-h">Measured vs predicted</h3>
        {groups.length > shown.length && (
          <p role="status" className="limit-note" data-testid="charts-capped">
            Showing the first {shown.length} of {groups.length.toLocaleString('en-US')} charts (the
            chart limit is {MAX_CHARTS}): each (benchmark, metric) pair is one chart. Import fewer
            benchmarks or metrics at a time to see the rest.
          </p>
        )}
        {!pending && bandsToCome > 0 && (
          <p role="status" className="limit-note" data-testid="bands-running">
            Running the bands: {bandsToCome.toLocaleString('en-US')} of{' '}
            {predictions.size.toLocaleString('en-US')} predictions still to run with every estimated
            cost at both ends of its range.
          </p>
        )}
        <div className="overlay-grid">
          {charts.map((c) => (
            <OverlayChart key={c.id} chart={c} />
          ))}
        </div>
      </section>
      <ImportPanel onAdd={add} />
      {storeProblem ? (
        <p className="muted" role="status">
          {storeProblem}
        </p>
      ) : (
        imported.length > 0 && (
          <p className="muted" data-testid="kept-note">
            Your imported datasets are kept in this browser until you remove them.
          </p>
        )
      )}
      <section aria-labelledby="datasets-h">
        <h3 id="datasets-h">Datasets</h3>
        {datasets.map((d) => (
          <div key={`${d.measurements[0]?.origin.kind ?? 'x'}:${d.file}`}>
            <DatasetTable
              dataset={d}
              kept={
                !drawn.includes(d)
                  ? undefined
                  : storeProblem
                    ? 'this visit'
                    : saving.has(d.file)
                      ? 'saving'
                      : 'kept'
              }
              onRemove={drawn.includes(d) ? () => remove(d) : undefined}
            />
            {drawn.includes(d) && <FitPanel dataset={d} onFitted={(f) => keepFit(d, f)} />}
          </div>
        ))}
      </section>
    </div>
  );
}
