// How far a fit can be trusted: a cost that ended at a bound of its range (the 1 ns floor or
// the ceiling) was not found by the data but stopped by the range, and the likely reason is
// said. Also the fitted machine as the preset TOML file `--costs` and the explorer read.
// Pure: a fit result in, words and text out.
import type { FitResult } from './fitCore.mjs';

export interface BoundFlag {
  name: string;
  bound: 'floor' | 'ceiling';
  value: number;
  reason: string;
}

/** The costs that ended at a bound, each with the likely reason. */
export function boundFlags(r: FitResult): BoundFlag[] {
  const free = r.params.filter((p) => p.identifiable);
  const rows = r.residuals.length;
  const flags: BoundFlag[] = [];
  for (const p of free) {
    const [lo, hi] = p.bounds;
    const bound = p.value <= lo ? 'floor' : p.value >= hi ? 'ceiling' : null;
    if (!bound) continue;
    const others = free.filter((q) => q !== p).map((q) => q.name);
    const reason =
      rows <= free.length
        ? `too few rows: ${rows} row${rows === 1 ? '' : 's'} for ${free.length} free costs, so the fit can trade one cost for another`
        : others.length
          ? `the data cannot separate ${p.name} from ${others.join(', ')}: the rows move together with them, so the fit pushed it to its ${bound}`
          : `the rows ask for a value beyond its range (${bound === 'floor' ? `${lo} ns is the floor` : `${hi} ns is the ceiling`}), so another cost of the model is off`;
    flags.push({ name: p.name, bound, value: p.value, reason });
  }
  return flags;
}

/** The fitted machine as a preset file: `tlbscope run <scenario> --costs <file>` applies it. */
export function fittedToml(r: FitResult, file: string): string {
  return [
    `# Fitted in the tlbscope page to ${file}: rms residual ${r.rms_pct.toFixed(3)}% over ${r.residuals.length} rows.`,
    `# Use: tlbscope run <scenario> --costs <this file>  (= --set machine=${r.preset} --set costs.<name>=<value> ...)`,
    '[machine]',
    `preset = "${r.preset}"`,
    '',
    '[costs]',
    ...r.params.map((p) => `${p.name} = ${p.value}`),
    '',
  ].join('\n');
}
