// "Model this recording": the scenario and settings that mirror an imported recording, each
// with its reason, editable, and run as B in Compare A/B (model/modelOfRecording.ts decides).
import { useMemo, useState } from 'react';
import { modelOfRecording, type ProposedSetting } from '../model/modelOfRecording';
import type { RecordedRun } from '../recording/asRun';
import { modelFacts } from '../recording/modelFacts';

interface Props {
  run: RecordedRun;
  /** Runs `scenario` as B with `overrides` (setB=), the recording staying A. */
  onModel: (scenario: string, overrides: string[]) => void;
}

export function ModelRecording({ run, onModel }: Props) {
  const proposal = useMemo(() => modelOfRecording(modelFacts(run)), [run]);
  const [open, setOpen] = useState(false);
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
        </>
      )}
    </section>
  );
}
