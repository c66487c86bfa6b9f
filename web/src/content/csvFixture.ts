// Test-only: CSV text read the way an import reads it, failing the test on a load error.
import { isLoadError, parseCsvText, type Table } from './csv';
import { suggestMapping, toMeasurements, type Origin } from './datasets';

/** The dataset schema's header row. */
export const HEADER = 'arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source';

export function table(text: string): Table {
  const t = parseCsvText(text);
  if (isLoadError(t)) throw new Error(t.message);
  return t;
}

/** Validates `text` with the mapping the page would suggest for its headers. */
export function validate(text: string, origin: Origin) {
  const t = table(text);
  return toMeasurements(t, suggestMapping(t.headers), origin);
}
