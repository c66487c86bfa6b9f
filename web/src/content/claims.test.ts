// Every text in content/scenarios/ held to the run it describes, through the real WASM build:
// each number a title, summary, description or guided step states must be backed by a claim
// (see claims.ts) that holds on the run of that text's settings, every summary field and event
// kind it quotes must exist (and the kind must happen), and no text may point at something
// the page does not show (a left/right layout, a file the site does not serve).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario, type RunResult } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind } from '../trace/trace';
import {
  claimedNumbers,
  holds,
  inputSpellings,
  inSources,
  measureOf,
  parseClaim,
  quantityOf,
  type ClaimRun,
} from './claims';

beforeAll(() => initSimulatorForNode());

const ids = readdirSync(resolve('content/scenarios'))
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.replace(/\.toml$/, ''))
  .sort();

const sources = [
  ...readdirSync(resolve('content/sources')).map((f) => `content/sources/${f}`),
  ...readdirSync(resolve('content/datasets'))
    .filter((f) => f.endsWith('.csv'))
    .map((f) => `content/datasets/${f}`),
  // A recording's provenance (machine, kernel, command) is a source a step may quote too.
  ...readdirSync(resolve('content/recordings'))
    .filter((f) => f.endsWith('.source.json'))
    .map((f) => `content/recordings/${f}`),
].map((p) => readFileSync(resolve(p), 'utf8'));

/** The file without its prose: where a number "the file sets" must be found. */
function settingsText(toml: string): string {
  return toml
    .replace(/"""[\s\S]*?"""/g, '')
    .split('\n')
    .filter((l) => !/^\s*(title|summary|text|question|answer|description)\s*=/.test(l))
    .join('\n');
}

interface Unit {
  where: string;
  text: string;
  claims: readonly string[];
  runs: () => { A: ClaimRun; B?: ClaimRun };
  /** Event kinds quoted in the text must happen in these runs (steps only). */
  kindsMustOccur: boolean;
}

function unitsOf(id: string): Unit[] {
  const toml = readScenario(id);
  const own = runScenario(toml, { overrides: ['max_events=1'] });
  const info = own.info;
  let ownRun: RunResult | null = null;
  const units: Unit[] = [
    {
      where: `${id}.toml (title, summary, description)`,
      text: [info.title, info.hook, info.description].join('\n\n'),
      claims: info.claims,
      runs: () => ({ A: (ownRun ??= runScenario(toml)) }),
      kindsMustOccur: false,
    },
  ];
  info.steps.forEach((s, i) => {
    let runs: { A: ClaimRun; B?: ClaimRun } | null = null;
    units.push({
      where: `${id}.toml: line ${s.line}: steps[${i}] "${s.title}"`,
      text: [s.title, s.text, s.question ?? '', s.answer ?? ''].join('\n\n'),
      claims: s.claims,
      runs: () =>
        (runs ??= {
          A: runScenario(toml, { overrides: s.set }),
          B: s.compare ? runScenario(toml, { overrides: s.compare }) : undefined,
        }),
      kindsMustOccur: true,
    });
  });
  return units;
}

const norm = (s: string) => s.replace(/\s+/g, ' ');

/** Every place `said` is written in `text` follows "about", "≈" or "~". */
function approximate(text: string, said: string): boolean {
  for (let i = text.indexOf(said); i >= 0; i = text.indexOf(said, i + 1)) {
    if (!/(?:\babout|≈|~)\s*$/.test(text.slice(Math.max(0, i - 8), i))) return false;
  }
  return true;
}

function problemsOf(unit: Unit, toml: string, costNames: Set<string>): string[] {
  const out: string[] = [];
  const text = norm(unit.text);
  const claims = unit.claims.map(parseClaim);
  const parsed = claims.filter((c): c is Exclude<typeof c, string> => typeof c !== 'string');
  for (const c of claims) if (typeof c === 'string') out.push(c);

  for (const n of claimedNumbers(unit.text)) {
    if (!parsed.some((c) => norm(c.said) === n))
      out.push(`"${n}" has no claim saying what it is (add "${n} = <measure>" to claims)`);
  }
  const settings = settingsText(toml);
  for (const c of parsed) {
    if (!text.includes(norm(c.said))) {
      out.push(`claim "${c.said}" is not in the text`);
      continue;
    }
    const q = quantityOf(c.said);
    if (!q) {
      out.push(`claim "${c.said}": no number in it`);
      continue;
    }
    if (c.measure === 'input') {
      const spellings = inputSpellings(c.said);
      if (!spellings.some((s) => new RegExp(`(^|[^\\d.])${s}(?![\\d.])`).test(settings)))
        out.push(`"${c.said}" = input: the file sets none of ${spellings.join(', ')}`);
      continue;
    }
    if (c.measure === 'cited') {
      // A commit id, a mail's message id, or a quotation the number comes with.
      if (!/\b[0-9a-f]{12}\b|<[^>\s]+@[^>\s]+>|"[^"]+"|`[\w/.-]+\.[ch]`/.test(unit.text))
        out.push(`"${c.said}" = cited: the text names no commit, mail or quoted source`);
      continue;
    }
    if (c.measure === 'source') {
      if (!inSources(c.said, sources))
        out.push(
          `"${c.said}" = source: not found in content/sources/, content/datasets/ or content/recordings/`,
        );
      continue;
    }
    const got = measureOf(c.measure, unit.runs());
    if (typeof got === 'string') out.push(got);
    else if (!holds(q, got)) out.push(`"${c.said}" = ${c.measure}: the run gives ${got}`);
    // A time the model computes rests on estimated costs: the text says it is approximate.
    if (q.time && !approximate(text, norm(c.said)))
      out.push(`"${c.said}" = ${c.measure}: a modelled time, written "about ${c.said}"`);
  }

  const summaryKeys = new Set(Object.keys(unit.runs().A.summary));
  for (const [, tok] of unit.text.matchAll(/`([a-z][a-z0-9_]*_ns)`/g)) {
    if (!summaryKeys.has(tok) && !costNames.has(tok))
      out.push(`\`${tok}\` is neither a summary field nor a cost parameter`);
  }
  for (const [, tok] of unit.text.matchAll(/`([a-z][a-z0-9_]*)` in the (?:two )?summar/g)) {
    if (!summaryKeys.has(tok)) out.push(`\`${tok}\` is not a field of the summary`);
  }
  const kinds = EventKind as unknown as Record<string, number>;
  for (const [, tok] of unit.text.matchAll(/`([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)`/g)) {
    if (typeof kinds[tok] !== 'number') {
      out.push(`\`${tok}\` is not an event kind`);
      continue;
    }
    if (!unit.kindsMustOccur) continue;
    const { A, B } = unit.runs();
    const occurs = (r?: ClaimRun) => !!r && r.trace.kind.includes(kinds[tok]);
    if (!occurs(A) && !occurs(B)) out.push(`\`${tok}\` does not happen in this step's run`);
  }

  // The A and B timelines are labelled A and B; where they sit depends on the screen.
  for (const m of text.matchAll(
    /\b(?:Left|Right):|\bon the (?:left|right)\b|\b(?:left|right) (?:side|timeline|panel|column)\b/gi,
  ))
    out.push(`"${m[0]}": say A or B, the timelines' labels`);
  // The prose renderer knows `code` and **bold** only: *this* would show its asterisks.
  for (const m of text.matchAll(/(?<![*\w`])\*[^*\s`][^*`]*\*(?![*\w])/g))
    out.push(`"${m[0]}": single-asterisk emphasis is not rendered; use **bold**`);
  for (const m of text.matchAll(/\b[\w-]+\.md\b/g))
    out.push(`"${m[0]}": the site does not serve that file; say what it says`);
  return out;
}

describe('every text in content/scenarios/ agrees with its run', () => {
  it.each(ids)(
    '%s',
    (id) => {
      const toml = readScenario(id);
      const costNames = new Set(
        Object.keys(runScenario(toml, { overrides: ['max_events=1'] }).info.costs),
      );
      const problems = unitsOf(id).flatMap((u) =>
        problemsOf(u, toml, costNames).map((p) => `${u.where}: ${p}`),
      );
      expect(problems).toEqual([]);
      // The 128-CPU benchmark's own run (100,000 flushes) takes seconds.
    },
    60_000,
  );
});

describe('the checker catches what it is for', () => {
  const toml = readScenario('x86-munmap-shootdown');
  const unit = (text: string, claims: string[], compare = false): Unit => ({
    where: 'test',
    text,
    claims,
    runs: () => ({
      A: runScenario(toml),
      B: compare ? runScenario(toml, { overrides: ['cpus=8'] }) : undefined,
    }),
    kindsMustOccur: true,
  });
  const check = (u: Unit) => problemsOf(u, toml, new Set(['ipi_delivery_ns']));

  it('a number without a claim, and a claim the run contradicts', () => {
    expect(check(unit('It sends 3 IPIs.', []))[0]).toContain('"3 IPIs" has no claim');
    expect(check(unit('It sends 3 IPIs.', ['3 IPIs = ipis']))).toEqual([]);
    expect(check(unit('It sends 4 IPIs.', ['4 IPIs = ipis']))[0]).toContain('the run gives 3');
    expect(check(unit('B sends 7 IPIs.', ['7 IPIs = B.ipis'], true))).toEqual([]);
  });

  it('times at the precision written, from the summary or the trace', () => {
    const run = runScenario(toml);
    const flush = run.summary.flush_latency_ns.max;
    const said = `${(flush / 1000).toFixed(2)} µs`;
    expect(
      check(unit(`The flush takes about ${said}.`, [`${said} = flush_latency_ns.max`])),
    ).toEqual([]);
    const off = `${(flush / 1000 + 0.02).toFixed(2)} µs`;
    expect(check(unit(`It takes about ${off}.`, [`${off} = flush_latency_ns.max`]))).toHaveLength(
      1,
    );
    // A modelled time rests on estimated costs: written without "about", it is flagged.
    expect(check(unit(`The flush takes ${said}.`, [`${said} = flush_latency_ns.max`]))).toEqual([
      `"${said}" = flush_latency_ns.max: a modelled time, written "about ${said}"`,
    ]);
    expect(check(unit('No op ends at 1 µs.', ['1 µs = time(Nope)']))[0]).toContain('unknown');
  });

  it('inputs and sources must be found where the claim says', () => {
    expect(check(unit('T1 starts at 3 µs.', ['3 µs = input']))).toEqual([]);
    expect(check(unit('T1 starts at 7 µs.', ['7 µs = input']))[0]).toContain('the file sets');
    expect(check(unit('Measured 2.5278 µs.', ['2.5278 µs = source']))).toEqual([]);
    expect(check(unit('Measured 9.8765 µs.', ['9.8765 µs = source']))[0]).toContain('not found');
  });

  it('left/right wording, unserved files, unknown fields and kinds', () => {
    const p = check(
      unit('Left: A. Right: B, see NOTES.md; read `flush_lat_ns` and `IpiSnet`.', []),
    );
    for (const bad of ['"Left:"', '"Right:"', 'NOTES.md', '`flush_lat_ns`', '`IpiSnet`'])
      expect(
        p.some((x) => x.includes(bad)),
        bad,
      ).toBe(true);
    expect(check(unit('Read `ipi_delivery_ns` and `IpiSent`.', []))).toEqual([]);
    expect(check(unit('Look for `AsidRollover`.', []))[0]).toContain('does not happen');
  });
});
