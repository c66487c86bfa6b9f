// A link's setting the simulator refused ("--set machine.cpus: must be between 1 and 512, got
// 999"), and the settings to open instead: a number out of range clamped to the nearest valid
// value, anything else (an unknown key, a word where a number belongs) left out. Pure.

export interface Repair {
  overrides: string[];
  /** What changed, in words ("cpus=512 instead of cpus=999"). */
  said: string;
}

const REFUSED = /--set ([\w.<>-]+): ([^\n]*)/;
const RANGE =
  /must be between (-?[\d.]+(?:e[+-]?\d+)?) and (-?[\d.]+(?:e[+-]?\d+)?), got (-?[\d.]+(?:e[+-]?\d+)?)/;

function keyOf(override: string): string {
  const eq = override.indexOf('=');
  return (eq < 0 ? override : override.slice(0, eq)).trim();
}

/** The override(s) `path` names: the key itself, or its last part ("machine.cpus" → "cpus"). */
function names(key: string, path: string): boolean {
  return key === path || path.endsWith(`.${key}`) || key.endsWith(`.${path}`);
}

/**
 * The settings without the one `message` refuses; null when the message names no override
 * of these (a problem of the scenario file itself).
 */
export function repairOverrides(overrides: readonly string[], message: string): Repair | null {
  const m = REFUSED.exec(message);
  if (!m) return null;
  const [, path, why] = m;
  const hit = overrides.filter((o) => names(keyOf(o), path));
  if (hit.length === 0) return null;
  const range = RANGE.exec(why);
  if (range) {
    const [lo, hi, got] = range.slice(1).map(Number);
    const value = String(got < lo ? lo : hi);
    const key = keyOf(hit[hit.length - 1]);
    return {
      overrides: overrides.map((o) => (hit.includes(o) ? `${key}=${value}` : o)),
      said: `${key}=${value} instead of ${hit.join(', ')} (the nearest value allowed)`,
    };
  }
  return {
    overrides: overrides.filter((o) => !hit.includes(o)),
    said: `without ${hit.join(', ')}`,
  };
}
