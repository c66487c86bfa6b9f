// "Model this recording": the scenario and settings that mirror an imported recording, each
// with its reason, editable, and run as B in Compare A/B (model/modelOfRecording.ts decides),
// with the costs the recording measures (model/recordedCosts.ts): B's design toggles then run
// on this machine's IPI costs, beside its recorded baseline.
import { useMemo, useState } from 'react';
import { breakdownFlushes } from '../model/flushScan';
import { modelOfRecording, type ProposedSetting } from '../model/modelOfRecording';
import { recordedCosts, type CostEstimate } from '../model/recordedCosts';
import { irqsBounded, type RecordedRun } from '../recording/asRun';
import { modelFacts } from '../recording/modelFacts';
import { formatNs } from '../viz/scales';

/** The recording's measured costs as settings for B, and the ones it could not measure. */
function measuredCosts(run: RecordedRun): { settings: ProposedSetting[]; missing: CostEstimate[] } {
  // A run kept in the import worker has no rows here to cut into parts.
  if (run.trace.remote) return { settings: [], missing: [] };
  const irqsKnown = irqsBounded(run);
  const c = recordedCosts(breakdownFlushes(run.trace, { irqsKnown }), { irqsKnown });
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

interface Props {
  run: RecordedRun;
  /** Runs `scenario` as B with `overrides` (setB=), the recording staying A. */
  onModel: (scenario: string, overrides: string[]) => void;
}

export function ModelRecording({ run, onModel }: Props) {
  const [open, setOpen] = useState(false);
  // The measured costs are a pass over every row: made when the reader opens the proposal,
  // not each time a recording loads.
  const proposal = useMemo(() => {
    const p = modelOfRecording(modelFacts(run));
    const costs = open ? measuredCosts(run) : { settings: [], missing: [] };
    return { ...p, settings: [...p.settings, ...costs.settings], missing: costs.missing };
  }, [run, open]);
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
        )}
      </p>
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
