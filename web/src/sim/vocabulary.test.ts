// The page's copies of the simulator's vocabulary: the generated module is what the WASM build
// declares, and the controls and the benchmark table offer only keys, choices and bounds it
// accepts.
import { beforeAll, describe, expect, it } from 'vitest';
import { vocabularyJson } from '../../../sim-wasm/pkg/tlbscope_sim.js';
import { SETTINGS } from '../app/settings';
import { PRESETS } from '../content/benchmarks';
import { initSimulatorForNode } from './testing';
import { VOCABULARY } from './vocabulary.generated';

beforeAll(() => initSimulatorForNode());

describe('vocabulary.generated.ts', () => {
  it('holds exactly what the simulator exports (run `npm run vocab` after changing it)', () => {
    expect(VOCABULARY).toEqual(JSON.parse(vocabularyJson()));
  });

  it('gives the controls the simulator’s choices, bounds and architecture for every key', () => {
    for (const control of SETTINGS) {
      const spec = VOCABULARY.settings.find((s) => s.key === control.key);
      expect(spec, control.key).toBeDefined();
      if (!spec) continue;
      expect(control.arch, control.key).toBe(spec.arch ?? undefined);
      if (spec.type === 'choice') expect(control.values).toEqual(spec.choices);
      if (spec.type === 'onoff') expect([...(control.values ?? [])].sort()).toEqual(['off', 'on']);
      if (spec.type === 'int' || spec.type === 'float') {
        expect(control.min, control.key).toBe(spec.min);
        expect(control.max, control.key).toBeLessThanOrEqual(spec.max);
      }
    }
  });

  it('lists the presets the benchmark table predicts with, the x86 default first', () => {
    expect([...PRESETS]).toEqual(VOCABULARY.presets.map((p) => p.id));
    expect(VOCABULARY.presets[0].arch).toBe('x86');
    expect(VOCABULARY.presets[0].default).toBe(true);
  });
});
