// @ts-check
// docs/cli.md and docs/model.md's cost table are what the CLI and the simulator say, and every
// command answers --help on its own. `npm run docs` rewrites the generated parts.
import { readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.mjs';
import { COMMANDS, commandHelp } from './help.mjs';
import { loadWasm } from './wasm.mjs';
import {
  CLI_PATH,
  COSTS_BEGIN,
  COSTS_END,
  MODEL_PATH,
  readerText,
  renderCli,
  renderCosts,
} from '../scripts/docsGen.mjs';
import { BEGIN, END, README_PATH } from '../scripts/vocabRender.mjs';

describe('the docs the CLI and the simulator generate', () => {
  it('docs/cli.md is the help table, byte for byte (run `npm run docs` after changing it)', async () => {
    expect(readFileSync(CLI_PATH, 'utf8')).toBe(await renderCli());
  });

  it("docs/model.md's cost table is the simulator's (run `npm run docs`)", async () => {
    const vocab = JSON.parse((await loadWasm()).vocabularyJson());
    const model = readFileSync(MODEL_PATH, 'utf8');
    const block = model.slice(
      model.indexOf(COSTS_BEGIN),
      model.indexOf(COSTS_END) + COSTS_END.length,
    );
    expect(block).toBe(await renderCosts(vocab));
    for (const c of vocab.costs) expect(block).toMatch(new RegExp(`\\| \`${c.name}\` +\\|`));
  });

  it("keeps the authors' working-paper ids out of what readers see", () => {
    expect(readerText('0.1–0.3 µs (§10 estimate).')).toBe('0.1–0.3 µs (estimate).');
    expect(readerText('5–40 ns (§10, from 10af6235e0d3).')).toBe('5–40 ns (from 10af6235e0d3).');
    expect(readerText('global entries (kernel-mechanics.md §1.5, §2.1): no PCID')).toBe(
      'global entries: no PCID',
    );
    for (const f of readdirSync('docs').filter((n) => n.endsWith('.md'))) {
      const text = readFileSync(`docs/${f}`, 'utf8');
      expect(text, f).not.toMatch(/§|kernel-mechanics|[Ss]eed 00/);
    }
    // The scenario authors' guide's prose; its settings table is the simulator's own text.
    const guide = readFileSync(README_PATH, 'utf8');
    const prose = guide.slice(0, guide.indexOf(BEGIN)) + guide.slice(guide.indexOf(END));
    expect(prose).not.toMatch(/§|kernel-mechanics|[Ss]eed 00/);
    expect(readFileSync('README.md', 'utf8')).not.toMatch(/§|kernel-mechanics|[Ss]eed 00/);
  });
});

describe('per-command help', () => {
  it.each(COMMANDS.map((c) => c.name))('%s --help describes that command alone', (name) => {
    expect(parseArgs([name, '--help'])).toMatchObject({ command: 'help', topic: name });
    const help = commandHelp(name);
    expect(help).toContain(`tlbscope ${name}`);
    for (const other of COMMANDS.filter((c) => c.name !== name)) {
      expect(help).not.toContain(`tlbscope ${other.name} `);
    }
  });

  it('prints it from the real command line, with exit code 0', () => {
    const r = spawnSync(
      process.execPath,
      ['web/cli/tlbscope.mjs', 'check', '--race', 'R1', '--help'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--reduce none|por|sym|all');
    expect(r.stdout).not.toContain('tlbscope sweep');
  });
});
