// @ts-check
// The copies of the simulator's settings vocabulary stay what the simulator declares: the
// generated TypeScript module, content/README.md's reference, and the settings the CLI's help
// uses as examples. `npm run vocab` rewrites the first two.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { USAGE } from './args.mjs';
import { loadWasm } from './wasm.mjs';
import {
  BEGIN,
  END,
  MODULE_PATH,
  README_PATH,
  renderModule,
  renderReference,
} from '../scripts/vocabRender.mjs';

/** @type {any} */
let vocab;

beforeAll(async () => {
  const sim = await loadWasm();
  vocab = JSON.parse(sim.vocabularyJson());
});

describe('the settings vocabulary', () => {
  it('is the generated module, byte for byte (run `npm run vocab` after changing the table)', async () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(await renderModule(vocab));
  });

  it("is content/README.md's settings reference", async () => {
    const readme = readFileSync(README_PATH, 'utf8');
    const section = readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length);
    expect(section).toBe(await renderReference(vocab));
  });

  it('names every setting once, with a path, a default and a doc', () => {
    const keys = vocab.settings.flatMap((/** @type {any} */ s) => [s.key, ...s.aliases]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of vocab.settings) {
      expect(s.path, s.key).toMatch(/^((machine|design|workload)\.)?[a-z_0-9]+$/);
      expect(s.doc.length, s.key).toBeGreaterThan(10);
      expect(s.default, s.key).not.toBeUndefined();
    }
    const presetIds = vocab.settings.find((/** @type {any} */ s) => s.key === 'machine').choices;
    expect(vocab.presets.map((/** @type {any} */ p) => p.id)).toEqual(presetIds);
  });

  it("accepts every setting the CLI's help shows as an example", () => {
    // `--set key=value` is the syntax, not an example.
    const examples = [...USAGE.matchAll(/--set ([a-z_.]+)=([^\s]+)/g)].filter(
      ([, k]) => k !== 'key',
    );
    expect(examples.length).toBeGreaterThan(2);
    for (const [, key, value] of examples) {
      if (key.startsWith('costs.')) {
        expect(vocab.costs.map((/** @type {any} */ c) => c.name)).toContain(key.slice(6));
        continue;
      }
      const s = vocab.settings.find((/** @type {any} */ x) => x.key === key);
      expect(s, key).toBeDefined();
      if (s.choices) expect(s.choices, key).toContain(value);
      else expect(Number(value), key).toBeGreaterThanOrEqual(s.min);
    }
  });
});
