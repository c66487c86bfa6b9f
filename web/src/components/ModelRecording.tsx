// "Model this recording": the scenario and settings that mirror an imported recording, each
// with its reason, editable, and run as B in Compare A/B (model/modelOfRecording.ts decides),
// with the costs the recording measures (model/recordedCosts.ts): B's design toggles then run
// on this machine's IPI costs, beside its recorded baseline. The costs also download as a
// costs file, the one `tlbscope fit-recording --out` writes. Measured when the reader opens the
// proposal: at once for a small recording, else a slice at a time (useBackgroundAnalysis.ts).
import { useMemo, useState } from 'react';
import { download } from '../app/download';
import { breakdownFlushes } from '../model/flushScan';
import { modelOfRecording, type ProposedSetting } from '../model/modelOfRecording';
import {
  costsToml,
  recordedCosts,
  withSyscallPath,
  type CostEstimate,
  type RecordedCosts,
} from '../model/recordedCosts';
import { irqsBounded, type RecordedRun } from '../recording/asRun';
import { modelFacts } from '../recording/modelFacts';
import type { RecordingSummary } from '../recording/summary';
import { formatNs } from '../viz/scales';
import { AT_ONCE_ROWS } from '../workers/analysisJob';
import { useBackgroundAnalysis } from './useBackgroundAnalysis';

/** The recording's measured costs as settings for B, and the ones it could not measure. */
function asSettings(c: RecordedCosts): { settings: ProposedSetting[]; missing: CostEstimate[] } {
  const grain = c.resolution >= 1000 ? '; timestamps in whole µs, so ±1 µs' : '';
  return {
    settings: c.estimates.flatMap((e) =>
      e.value === null
        ? []
        : [
            {
              key: `costs.${e.name}`,
              value: String(e.value),
              reason: `measured here: the median of ${e.samples} (p10 ${formatNs(e.p10 as number)}, p90 ${formatNs(e.p90 as number)})${grain}`,
            },
          ],
    ),
    missing: c.estimates.filter((e) => e.value === null),
  };
}

/** The costs `run` measures once `open`: null until then, or while a large one is read. */
function useMeasuredCosts(run: RecordedRun, open: boolean) {
  const irqsKnown = irqsBounded(run);
  const small = !run.trace.remote && run.trace.n <= AT_ONCE_ROWS;
  const atOnce = useMemo(
    () =>
      open && small
        ? recordedCosts(breakdownFlushes(run.trace, { irqsKnown }), { irqsKnown })
        : null,
    [open, small, run.trace, irqsKnown],
  );
  const ask = useMemo(() => ({ top: 0, irqsKnown, tasks: null, costs: true }), [irqsKnown]);
  const background = useBackgroundAnalysis(run.trace, ask, open && !small);
  const s = background.state;
  const rows = atOnce ?? (s?.status === 'done' ? s.costs : null);
  // The syscall path comes from the recording's summary, read with the file.
  const summary = run.summary as RecordingSummary;
  const costs = useMemo(
    () => rows && withSyscallPath(rows, summary.syscall_path_ns ?? null),
    [rows, summary],
  );
  return { costs, reading: s?.status === 'running' ? s : null };
}

interface Props {
  run: RecordedRun;
  /** Runs `scenario` as B with `overrides` (setB=), the recording staying A. */
  onModel: (scenario: string, overrides: string[]) => void;
}

export function ModelRecording({ run, onModel }: Props) {
  const [open, setOpen] = useState(false);
  // The measured costs are a pass over every row: made when the reader opens the proposal,
  // not each time a recording loads.
  const measured = useMeasuredCosts(run, open);
  const proposal = useMemo(() => {
    const p = modelOfRecording(modelFacts(run));
    const costs = measured.costs ? asSettings(measured.costs) : { settings: [], missing: [] };
    return { ...p, settings: [...p.settings, ...costs.settings], missing: costs.missing };
  }, [run, measured.costs]);
  const presetId = proposal.settings.find((s) => s.key === 'machine')?.value ?? 'generic-x86';
  const saveCosts = () => {
    if (!measured.costs) return;
    const name = run.recording.name.replace(/\.[^.]*$/, '') || 'recording';
    download(
      new Blob([costsToml(measured.costs, presetId, run.recording.name)], { type: 'text/plain' }),
      `${name}.costs.toml`,
    );
  };
  // The user's edits, by key, over the proposal's values.
  const [edits, setEdits] = useState<Record<string, string>>({});
  const value = (s: ProposedSetting) => edits[s.key] ?? s.value;
  const runAsB = () =>
    onModel(
      proposal.scenario,
      proposal.settings.map((s) => `${s.key}=${value(s).trim()}`).filter((o) => !o.endsWith('=')),
    );
  return (
    <section className="model-recording" aria-label="Model this recording">
      <p>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          Model this recording
        </button>{' '}
        {open && (
          <button type="button" onClick={runAsB}>
            Run as B in Compare A/B
          </button>
        )}{' '}
        {open && measured.costs && (
          <button
            type="button"
            onClick={saveCosts}
            title="The measured costs as a file for tlbscope run --costs (what fit-recording --out writes)"
          >
            Download the costs (.toml)
          </button>
        )}
      </p>
      {open && measured.reading && (
        <p className="analysis-progress">
          <label>
            Measuring the recording’s costs:{' '}
            <progress max={measured.reading.total} value={measured.reading.rows} />{' '}
            {measured.reading.rows.toLocaleString('en-US')} of{' '}
            {measured.reading.total.toLocaleString('en-US')} rows
          </label>
        </p>
      )}
      {open && (
        <>
          <p>
            Scenario <code>{proposal.scenario}</code>: {proposal.scenarioReason}. Settings for B:
          </p>
          <ul className="model-settings" aria-label="Proposed settings">
            {proposal.settings.map((s) => (
              <li key={s.key} data-setting={s.key}>
                <label>
                  <code>{s.key}</code> ={' '}
                  <input
                    size={Math.max(4, value(s).length + 1)}
                    value={value(s)}
                    onChange={(e) => setEdits({ ...edits, [s.key]: e.target.value })}
                  />
                </label>{' '}
                <span className="muted">{s.reason}</span>
              </li>
            ))}
          </ul>
          {proposal.missing.length > 0 && (
            <p className="muted" data-costs-missing>
              Not measured by this recording, so the preset's:{' '}
              {proposal.missing.map((e) => `${e.name} (${e.basis})`).join('; ')}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
