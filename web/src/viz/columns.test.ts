import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventKind } from '../trace/trace';
import { colouredKinds, fallbackColour, kindVar } from './columns';

describe('every span kind has a colour of its own', () => {
  it('no two kinds share a colour variable (FlushRange and TlbiBroadcast used to)', () => {
    const kinds = colouredKinds();
    const vars = kinds.map(kindVar);
    expect(new Set(vars).size).toBe(kinds.length);
    expect(kindVar(EventKind.TlbiBroadcast)).not.toBe(kindVar(EventKind.FlushRange));
    expect(kindVar(EventKind.LocalTlbi)).not.toBe(kindVar(EventKind.FlushTlbFunc));
  });

  it('and the variables hold distinct colours in both themes of the stylesheet', () => {
    const css = readFileSync(resolve('web/src/app/app.css'), 'utf8');
    const [light, dark] = css.split('@media (prefers-color-scheme: dark)');
    for (const block of [light, dark]) {
      const colours = colouredKinds().map((k) => {
        const v = kindVar(k);
        const m = new RegExp(`${v}:\\s*(#[0-9a-f]{6})`, 'i').exec(block);
        expect(m, `${v} in ${block === light ? 'light' : 'dark'}`).not.toBeNull();
        return m![1].toLowerCase();
      });
      expect(new Set(colours).size).toBe(colours.length);
    }
    const fallback = colouredKinds().map((k) => fallbackColour(kindVar(k)));
    expect(new Set(fallback).size).toBe(fallback.length);
  });
});
