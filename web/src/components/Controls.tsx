// One column of design toggles and workload knobs. Values are `key=value` overrides on top
// of the scenario file; an empty field means "as the scenario says".
import { settingsFor, valueOf, withValue } from '../app/settings';

interface Props {
  /** Distinguishes the A and B columns in ids and labels. */
  name: string;
  overrides: readonly string[];
  onChange: (overrides: string[]) => void;
  /** The architecture of the run these settings belong to. */
  arch: string;
}

export function Controls({ name, overrides, onChange, arch }: Props) {
  return (
    <fieldset className="controls" aria-label={`Settings ${name}`}>
      <legend>Settings {name}</legend>
      {settingsFor(valueOf(overrides, 'arch') ?? arch).map((s) => {
        const id = `set-${name}-${s.key}`;
        const value = valueOf(overrides, s.key) ?? '';
        return (
          <div className="control" key={s.key}>
            <label htmlFor={id} title={s.help}>
              {s.label}
            </label>
            {s.values ? (
              <select
                id={id}
                data-setting={s.key}
                value={value}
                onChange={(e) => onChange(withValue(overrides, s.key, e.target.value))}
              >
                <option value="">(scenario)</option>
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
                placeholder="(scenario)"
                defaultValue={value}
                key={value}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') e.currentTarget.blur();
                }}
                onBlur={(e) => {
                  if (e.target.value !== value)
                    onChange(withValue(overrides, s.key, e.target.value));
                }}
              />
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
