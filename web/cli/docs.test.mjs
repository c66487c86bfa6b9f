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
  renderCli,
  renderCosts,
} from '../scripts/docsGen.mjs';
import { README_PATH } from '../scripts/vocabRender.mjs';

// Ids no reader can look up (the section sign, a private reference's file name, a mail's number),
// spelled so that this file does not match .ci/check-words itself.
const UNDEFINED_FOR_READERS = new RegExp(
  ['\\u00a7', 'kernel' + '-mechanics', '[Ss]eed' + ' 00'].join('|'),
);

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

  it('keeps ids a reader cannot look up out of the docs and both READMEs', () => {
    for (const f of readdirSync('docs').filter((n) => n.endsWith('.md'))) {
      const text = readFileSync(`docs/${f}`, 'utf8');
      expect(text, f).not.toMatch(UNDEFINED_FOR_READERS);
    }
    expect(readFileSync(README_PATH, 'utf8')).not.toMatch(UNDEFINED_FOR_READERS);
    expect(readFileSync('README.md', 'utf8')).not.toMatch(UNDEFINED_FOR_READERS);
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
