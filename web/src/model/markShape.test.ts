import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { colouredKinds, kindVar } from '../viz/columns';
import { EventKind, kindName } from '../trace/trace';
import { SPAN_TRACK } from './lanes';
import { BANDS, bandBox, bandOf, shapeKey } from './markShape';

describe('every span kind has a shape of its own', () => {
  it('no two kinds share a sub-track and a band', () => {
    const kinds = [...SPAN_TRACK.keys()];
    const keys = kinds.map(shapeKey);
    expect(new Set(keys).size, kinds.map(kindName).join(' ')).toBe(kinds.length);
  });

  it('the kinds that share a sub-track (and once a colour) differ in shape', () => {
    expect(bandOf(EventKind.TlbiBroadcast)).not.toBe(bandOf(EventKind.FlushRange));
    expect(bandOf(EventKind.IpiHandler)).not.toBe(bandOf(EventKind.FlushRange));
    expect(bandOf(EventKind.FlushTlbFunc)).not.toBe(bandOf(EventKind.IpiWait));
  });

  it('bands stay inside the bar and are at least 30 % of it (3 px of a 10 px track)', () => {
    for (const [t, b] of Object.values(BANDS)) {
      expect(t).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThanOrEqual(1);
      expect(b - t).toBeGreaterThanOrEqual(0.3);
    }
    expect(bandBox(EventKind.IpiHandler, 10, 8)).toEqual({ y: 13.6, h: 4.4 });
    expect(bandBox(EventKind.FlushRange, 10, 8)).toEqual({ y: 10, h: 8 });
  });
});

// WCAG's relative luminance and contrast ratio.
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe('every mark colour reads on its lane in both themes', () => {
  it('has at least 3:1 contrast with the lane (a task running is a background tint)', () => {
    const css = readFileSync(resolve('web/src/app/app.css'), 'utf8');
    const [light, dark] = css.split('@media (prefers-color-scheme: dark)');
    const quiet = new Set<number>([EventKind.TaskRun, EventKind.Lazy]);
    for (const block of [light, dark]) {
      const v = (name: string) => new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(block)![1];
      const lane = v('--lane');
      for (const k of colouredKinds()) {
        if (quiet.has(k)) continue;
        const c = contrast(v(kindVar(k)), lane);
        expect(c, `${kindName(k)} ${kindVar(k)} on ${lane}`).toBeGreaterThanOrEqual(3);
      }
      expect(contrast(v('--diff'), lane)).toBeGreaterThanOrEqual(3);
      expect(contrast(v('--series-b'), v('--bg'))).toBeGreaterThanOrEqual(3);
    }
  });
});
