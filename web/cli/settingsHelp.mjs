// @ts-check
// `tlbscope settings`: the simulator's settings and cost parameters as the simulator itself
// declares them (its `vocabularyJson()` binding, from sim-wasm/src/scenario/vocabulary/), so
// the CLI's reference cannot drift from what `--set` accepts.

/**
 * @typedef {{ key: string, path: string, type: string, arch: string | null, doc: string,
 *   choices?: string[], min?: number | null, max?: number | null, maxOf?: string | null,
 *   default?: unknown, aliases?: string[] }} Setting
 * @typedef {{ name: string, unit: string, doc: string, max?: number | null, low?: number | null, high?: number | null, range?: string | null }} Cost
 * @typedef {{ arch: string, id?: string, name?: string }} Preset
 * @typedef {{ settings: Setting[], costs: Cost[], presets: Preset[], archs: string[] }} Vocabulary
 */

/** @param {unknown} d */
function defaultText(d) {
  if (d === null || d === undefined) return '';
  if (typeof d === 'object' && 'derived' in d) return `default: ${String(d.derived)}`;
  return `default: ${String(d)}`;
}

/** @param {Setting} s */
function valuesText(s) {
  if (s.choices) return s.choices.join('|');
  if (s.type === 'onoff') return 'on|off';
  const hi = s.maxOf ? s.maxOf : (s.max ?? '');
  return `${s.type} ${s.min ?? ''}..${hi}`;
}

/**
 * @param {string} text
 * @param {string} indent
 * @param {number} width
 */
function wrap(text, indent, width = 96) {
  const out = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      out.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(indent + line);
  return out.join('\n');
}

/**
 * The reference as text: one entry per setting (key, accepted values, default, architecture,
 * what it does), then every cost parameter (`--set costs.<name>=…`).
 * @param {Vocabulary} v
 */
export function formatSettings(v) {
  const parts = ['Settings (--set key=value; in a scenario file under the section shown):\n'];
  for (const s of v.settings) {
    const head = [
      `  ${s.key}`,
      `[${s.path}]`,
      valuesText(s),
      defaultText(s.default),
      s.arch ? `(${s.arch} only)` : '',
    ].filter(Boolean);
    parts.push(`${head.join('  ')}\n${wrap(s.doc, '      ')}\n`);
  }
  parts.push('\nCost parameters (--set costs.<name>=value; presets set them per machine):\n');
  for (const c of v.costs) {
    const range =
      c.low == null || c.high == null
        ? 'Range: none (exact for the configuration it describes).'
        : `Range: ${c.low}× to ${c.high}× the value a run uses (${c.range}).`;
    parts.push(`  costs.${c.name}  (${c.unit})\n${wrap(`${c.doc} ${range}`, '      ')}\n`);
  }
  return parts.join('');
}
