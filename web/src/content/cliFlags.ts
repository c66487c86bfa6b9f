// The `tlbscope fit` flags that read a file as an import read it: `--map` for each column the
// file names otherwise (the CLI finds the rest by the same synonyms), and the text-import
// choices the reader made instead of the detected ones. The CLI detects what is not given, as
// the page does, so detected choices need no flag.
import type { ImportRecipe } from './datasets';

const quoted = (s: string) => (/^[\w.,=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function cliFlags(recipe: Pick<ImportRecipe, 'mapping' | 'options'>): string {
  const { mapping, options } = recipe;
  const flags = Object.entries(mapping)
    .filter(([col, header]) => header !== undefined && header.trim().toLowerCase() !== col)
    .map(([col, header]) => `--map ${quoted(`${col}=${header}`)}`);
  for (const [col, value] of Object.entries(options.fixed ?? {}))
    if (value?.trim()) flags.push(`--fix ${quoted(`${col}=${value.trim()}`)}`);
  if (options.separator)
    flags.push(`--separator ${options.separator === '\t' ? 'tab' : quoted(options.separator)}`);
  if (options.decimal) flags.push(`--decimal ${quoted(options.decimal)}`);
  if (options.headerRow !== null) flags.push(`--header-row ${options.headerRow}`);
  return flags.join(' ');
}
