// @vitest-environment node
/**
 * Traceability checks for content/datasets: every number transcribed from a patch mail must be
 * findable in that mail, written the way the mail writes it, and every source must be described
 * in sources.json. See content/datasets/README.md for the schema.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const datasetsDir = resolve(repoRoot, 'content/datasets');

const HEADER = 'arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source';
const COLUMNS = HEADER.split(',');
const UNITS = new Set(['us', 'ns', 'count', 'million', 'percent', 'x', 'per_s']);

type Row = Record<string, string>;

interface Source {
  kind: 'patch-mail' | 'local';
  excerpt_file: string | null;
  title: string;
  author: string;
  date: string | null;
  also_reported_in?: { excerpt_file: string; title: string; date: string | null }[];
  raw_runs_us?: Record<string, number[]>;
}

/**
 * The datasets are plain CSV without quoting, since no field needs it; a quote is rejected
 * rather than misread. (The web app will parse imports with d3-dsv; this stays dependency-free.)
 */
function parseDatasetCsv(text: string): { header: string; rows: Row[] } {
  const lines = text.replace(/\n$/, '').split('\n');
  const header = lines[0] ?? '';
  const rows = lines.slice(1).map((line, i) => {
    if (line.includes('"') || line.includes('\r')) {
      throw new Error(`line ${i + 2}: quotes and CR are not part of the dataset format`);
    }
    const fields = line.split(',');
    if (fields.length !== COLUMNS.length) {
      throw new Error(`line ${i + 2}: ${fields.length} fields, expected ${COLUMNS.length}`);
    }
    return Object.fromEntries(COLUMNS.map((c, j) => [c, fields[j] ?? ''])) as Row;
  });
  return { header, rows };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** 1602888401 -> 1,602,888,401: mails may group digits; the CSV never does. */
function withThousands(value: string): string {
  const [int = '', frac] = value.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/**
 * True when `value` occurs in `text` as a whole number, exactly as written: "2.5278" must not
 * match inside "12.52781", and "5" must not match the "5" of "2.5".
 */
function seedMentions(text: string, value: string): boolean {
  return [value, withThousands(value)].some((form) =>
    new RegExp(`(?<![0-9.,])${escapeRegExp(form)}(?![0-9]|[.,][0-9])`).test(text),
  );
}

const sources = JSON.parse(readFileSync(resolve(datasetsDir, 'sources.json'), 'utf8')) as Record<
  string,
  Source
>;
const csvFiles = readdirSync(datasetsDir)
  .filter((f) => f.endsWith('.csv'))
  .sort();
const localFiles = csvFiles.filter((f) => f.startsWith('local-'));
// A transcribed dataset is named for its source (<author>-<year>-<topic>), so every CSV that is
// not a local run is one.
const seedFiles = csvFiles.filter((f) => !localFiles.includes(f));

function readDataset(file: string) {
  return parseDatasetCsv(readFileSync(resolve(datasetsDir, file), 'utf8'));
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SNAKE = /^[a-z0-9]+(_[a-z0-9]+)*$/;
// key=value, or key=before->after for rows that compare two designs; pairs joined by ';'.
const VARIANT =
  /^[a-z_]+=[A-Za-z0-9_.+-]+?(->[A-Za-z0-9_.+-]+)?(;[a-z_]+=[A-Za-z0-9_.+-]+?(->[A-Za-z0-9_.+-]+)?)*$/;

/** Returns a list of problems so a failure names every bad row at once. */
function schemaProblems(rows: Row[]): string[] {
  const problems: string[] = [];
  rows.forEach((r, i) => {
    const at = `row ${i + 2}`;
    if (r.arch !== 'x86' && r.arch !== 'arm64') problems.push(`${at}: arch ${r.arch}`);
    if (!KEBAB.test(r.machine!)) problems.push(`${at}: machine ${r.machine}`);
    if (r.cpus !== '' && !INTEGER.test(r.cpus!)) problems.push(`${at}: cpus ${r.cpus}`);
    if (!KEBAB.test(r.benchmark!)) problems.push(`${at}: benchmark ${r.benchmark}`);
    if (!VARIANT.test(r.variant!)) problems.push(`${at}: variant ${r.variant}`);
    if (!SNAKE.test(r.metric!)) problems.push(`${at}: metric ${r.metric}`);
    if (!NUMBER.test(r.value!)) problems.push(`${at}: value ${r.value}`);
    if (!UNITS.has(r.unit!)) problems.push(`${at}: unit ${r.unit}`);
    if (r.stddev !== '' && !NUMBER.test(r.stddev!)) problems.push(`${at}: stddev ${r.stddev}`);
    if (r.runs !== '' && !INTEGER.test(r.runs!)) problems.push(`${at}: runs ${r.runs}`);
  });
  return problems;
}

describe('seed datasets', () => {
  it('include one CSV for every seed source in sources.json', () => {
    const seedSources = Object.keys(sources).filter((id) => sources[id]!.kind === 'patch-mail');
    expect(seedSources.length).toBeGreaterThan(0);
    for (const id of seedSources) {
      expect(seedFiles.filter((f) => f === `${id}.csv`)).toHaveLength(1);
    }
  });

  it('name each mail source <author-surname>-<year>-<topic>, from its author and date', () => {
    const mails = Object.keys(sources).filter((id) => sources[id]!.kind === 'patch-mail');
    for (const id of mails) {
      const m = /^([a-z]+)-(\d{4})-[a-z0-9]+(-[a-z0-9]+)*$/.exec(id);
      expect(m, `${id} is not <author>-<year>-<topic>`).not.toBeNull();
      const s = sources[id]!;
      expect(s.author.toLowerCase(), `${id}: author ${s.author}`).toContain(m![1]);
      const dates = [s.date, ...(s.also_reported_in ?? []).map((a) => a.date)];
      expect(
        dates.some((d) => d?.includes(m![2]!)),
        `${id}: no date of ${m![2]} in ${dates.join(', ')}`,
      ).toBe(true);
    }
  });

  for (const file of seedFiles) {
    describe(file, () => {
      const { header, rows } = readDataset(file);
      const ids = [...new Set(rows.map((r) => r.source!))];

      it('starts with the schema header', () => {
        expect(header).toBe(HEADER);
      });

      it('has rows that use the schema vocabularies', () => {
        expect(rows.length).toBeGreaterThan(0);
        expect(schemaProblems(rows)).toEqual([]);
      });

      it('comes from exactly one source, whose id is the file name', () => {
        expect(ids).toHaveLength(1);
        expect(file).toBe(`${ids[0]}.csv`);
      });

      it('names a source that sources.json describes with its excerpt inside the repository', () => {
        for (const id of ids) {
          const source = sources[id];
          expect(source, `sources.json has no entry ${id}`).toBeDefined();
          expect(source!.kind).toBe('patch-mail');
          const seedPaths = [
            source!.excerpt_file,
            ...(source!.also_reported_in ?? []).map((a) => a.excerpt_file),
          ];
          for (const p of seedPaths) {
            expect(p).toBeTypeOf('string');
            expect(p!.startsWith('content/sources/'), `${p} is outside content/sources/`).toBe(
              true,
            );
            expect(existsSync(resolve(repoRoot, p!)), `missing source excerpt ${p}`).toBe(true);
          }
        }
      });

      it('has every value, stddev, run count and CPU count written in its seed text', () => {
        const seedText = readFileSync(resolve(repoRoot, sources[ids[0]!]!.excerpt_file!), 'utf8');
        const untraceable = rows.flatMap((r, i) =>
          (['value', 'stddev', 'runs', 'cpus'] as const)
            .filter((col) => r[col] !== '' && !seedMentions(seedText, r[col]!))
            .map((col) => `row ${i + 2} ${col}=${r[col]}`),
        );
        expect(untraceable).toEqual([]);
      });
    });
  }
});

/** The `Key: value` lines that open every excerpt in content/sources/, before the rule. */
function excerptHeader(text: string): Record<string, string> {
  const head = text.split(/^-{20,}$/m)[0] ?? '';
  return Object.fromEntries(
    head
      .split('\n')
      .map((line) => /^([A-Z][a-z ]+): (.+)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
}

describe('source excerpts', () => {
  const entries = Object.entries(sources).flatMap(([id, s]) =>
    [
      { excerpt_file: s.excerpt_file, title: s.title },
      ...(s.also_reported_in ?? []).map((a) => ({ excerpt_file: a.excerpt_file, title: a.title })),
    ]
      .filter((e): e is { excerpt_file: string; title: string } => e.excerpt_file !== null)
      .map((e) => ({ id, ...e })),
  );

  it('cover every seed source', () => {
    expect(entries.length).toBeGreaterThanOrEqual(seedFiles.length);
  });

  for (const { id, excerpt_file, title } of entries) {
    it(`${excerpt_file} states title, author, date, list and link, and what was left out`, () => {
      const header = excerptHeader(readFileSync(resolve(repoRoot, excerpt_file), 'utf8'));
      expect(header.Source?.startsWith(id)).toBe(true);
      expect(header.Title).toBe(title);
      for (const key of ['Author', 'Date', 'List', 'Link', 'Excerpt']) {
        expect(header[key], `${excerpt_file} has no ${key}: line`).toBeTruthy();
      }
    });
  }
});

describe('seed text matching', () => {
  it('finds a number written with thousands separators', () => {
    expect(seedMentions('took 1,602,888,401 ns', '1602888401')).toBe(true);
  });

  it('does not find a number that only appears inside a longer one', () => {
    expect(seedMentions('avg 2.52781 and 12.5278', '2.5278')).toBe(false);
    expect(seedMentions('version 2.5', '5')).toBe(false);
  });
});

describe('local bench-kit datasets', () => {
  it('include at least one dataset measured with bench/kit', () => {
    expect(localFiles.length).toBeGreaterThan(0);
  });

  for (const file of localFiles) {
    describe(file, () => {
      const { header, rows } = readDataset(file);

      it('starts with the schema header', () => {
        expect(header).toBe(HEADER);
      });

      it('has rows that use the schema vocabularies', () => {
        expect(rows.length).toBeGreaterThan(0);
        expect(schemaProblems(rows)).toEqual([]);
      });

      it('names a source that sources.json describes as a local measurement', () => {
        for (const id of new Set(rows.map((r) => r.source!))) {
          expect(sources[id], `sources.json has no entry ${id}`).toBeDefined();
          expect(sources[id]!.kind).toBe('local');
          expect(file).toBe(`${id}.csv`);
        }
      });

      it('has means, stddevs and best runs that follow from the raw runs in sources.json', () => {
        for (const r of rows) {
          if (r.metric !== 'op_latency' && r.metric !== 'op_latency_best') continue;
          const runs = sources[r.source!]!.raw_runs_us?.[`${r.benchmark};${r.variant}`];
          expect(runs, `no raw runs for ${r.benchmark};${r.variant}`).toBeDefined();
          expect(Number(r.runs)).toBe(runs!.length);
          const mean = runs!.reduce((a, b) => a + b, 0) / runs!.length;
          if (r.metric === 'op_latency_best') {
            expect(Number(r.value)).toBe(Math.min(...runs!));
            continue;
          }
          const ss = runs!.reduce((a, b) => a + (b - mean) ** 2, 0);
          expect(Number(r.value)).toBeCloseTo(mean, 3);
          expect(Number(r.stddev)).toBeCloseTo(Math.sqrt(ss / (runs!.length - 1)), 3);
        }
      });
    });
  }
});
