// Types of columns.mjs.
export type SchemaColumn =
  | 'arch'
  | 'machine'
  | 'cpus'
  | 'benchmark'
  | 'variant'
  | 'metric'
  | 'value'
  | 'unit'
  | 'stddev'
  | 'runs'
  | 'source';
export const SCHEMA: readonly SchemaColumn[];
export const REQUIRED: readonly SchemaColumn[];
export const SYNONYMS: Readonly<Record<SchemaColumn, readonly string[]>>;
export const UNIT_ALIASES: Readonly<Record<string, string>>;
export function normalizeHeader(h: string): string;
/** Schema column → index of the file's column, or -1 when unmapped. */
export function suggestMapping(headers: readonly string[]): Record<SchemaColumn, number>;
export function canonicalUnit(raw: string): string | undefined;
