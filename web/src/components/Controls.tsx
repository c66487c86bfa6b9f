// One column of design toggles and workload knobs. Each control shows the value the run used
// and whose choice it is: the scenario's (its file or its preset's defaults), the guided
// step's, or the reader's, which a reset button takes back. Values are `key=value` overrides
// on top of the scenario file.
import { KERNELS } from '../app/kernels';
import {
  controlState,
  settingsFor,
  valueOf,
  withArch,
  withValue,
  type SettingSource,
} from '../app/settings';
import { kernelSetting } from '../model/kernelHistory';

interface Props {
  /** Distinguishes the A and B columns in ids and labels. */
  name: string;
  overrides: readonly string[];
  onChange: (overrides: string[]) => void;
  /** The architecture of the run these settings belong to. */
  arch: string;
  /** Every setting the last run used (the simulator's settingsJson), if one has finished. */
  effective?: Readonly<Record<string, string>>;
  /** The current guided step's overrides, which are the step's choice, not the reader's. */
  stepSet?: readonly string[];
  /** The column's heading when not "Settings <name>" (a recording as A), and a line under it. */
  title?: string;
  note?: string;
}

const SOURCE_LABEL: Record<SettingSource, string> = {
  scenario: 'scenario',
  step: 'this step',
  you: 'yours',
};

export function Controls({
  name,
  overrides,
  onChange,
  arch,
  effective,
  stepSet,
  title,
  note,
}: Props) {
  return (
    <fieldset className="controls" aria-label={title ?? `Settings ${name}`}>
      <legend>{title ?? `Settings ${name}`}</legend>
      {note && <p className="controls-note muted">{note}</p>}
      {settingsFor(valueOf(overrides, 'arch') ?? arch).map((s) => {
        const id = `set-${name}-${s.key}`;
        const st = controlState(s.key, overrides, effective, stepSet);
        const reset = () => onChange(withValue(overrides, s.key, undefined));
        // A toggle the kernel history slider set is the kernel's, not the reader's.
        const kernel = st.source === 'you' ? kernelSetting(KERNELS, overrides, s.key) : null;
        return (
          <div className="control" key={s.key} data-source={st.source}>
            <div className="control-head">
              <label htmlFor={id} title={s.help}>
                {s.label}
              </label>
              <span className={`source source-${st.source}`} data-control-source={s.key}>
                {kernel ? `Linux ${kernel}` : SOURCE_LABEL[st.source]}
              </span>
              {st.overridden && (
                <button
                  type="button"
                  className="linklike reset"
                  aria-label={`Reset ${s.label} (${name}) to the scenario's value`}
                  title="Back to the scenario's value"
                  onClick={reset}
                >
                  ×
                </button>
              )}
            </div>
            {s.values ? (
              <select
                id={id}
                data-setting={s.key}
                value={st.value}
                onChange={(e) =>
                  onChange(
                    s.key === 'arch'
                      ? withArch(overrides, e.target.value)
                      : withValue(overrides, s.key, e.target.value),
                  )
                }
              >
                {/* A value the list does not offer (e.g. a preset from a file) is still shown. */}
                {!s.values.includes(st.value) && (
                  <option value={st.value}>{st.value || '…'}</option>
                )}
                {s.values.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                data-setting={s.key}
                type="number"
                min={s.min}
                max={s.max}
                step={s.step}
                defaultValue={st.value}
                key={`${st.source}:${st.value}`}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') e.currentTarget.blur();
                }}
                onBlur={(e) => {
                  const v = e.target.value;
                  if (v === st.value) return;
                  // Clearing the field hands the value back to the scenario.
                  onChange(withValue(overrides, s.key, v === '' ? undefined : v));
                }}
              />
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
