import { describe, expect, it } from 'vitest';
import {
  nextThemeChoice,
  readThemeChoice,
  shownTheme,
  THEME_KEY,
  themeAttribute,
  writeThemeChoice,
} from './theme';

const memory = () => {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
};

describe('the remembered theme choice', () => {
  it('round-trips light and dark, and stores nothing for the system’s', () => {
    const s = memory();
    expect(readThemeChoice(s)).toBe('system');
    writeThemeChoice(s, 'dark');
    expect(s.m.get(THEME_KEY)).toBe('dark');
    expect(readThemeChoice(s)).toBe('dark');
    writeThemeChoice(s, 'system');
    expect(s.m.has(THEME_KEY)).toBe(false);
    expect(readThemeChoice(s)).toBe('system');
  });

  it('reads a damaged value or a storage that throws as the system’s theme', () => {
    const s = memory();
    s.setItem(THEME_KEY, 'pink');
    expect(readThemeChoice(s)).toBe('system');
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(readThemeChoice(throwing)).toBe('system');
    expect(() => writeThemeChoice(throwing, 'dark')).not.toThrow();
    expect(readThemeChoice(null)).toBe('system');
  });
});

describe('which theme the page shows', () => {
  it('a link’s theme wins over the choice, and "system" leaves it to the system', () => {
    expect(themeAttribute('light', 'dark')).toBe('light');
    expect(themeAttribute(null, 'dark')).toBe('dark');
    expect(themeAttribute(undefined, 'system')).toBeNull();
    expect(shownTheme(null, true)).toBe('dark');
    expect(shownTheme(null, false)).toBe('light');
    expect(shownTheme('light', true)).toBe('light');
  });

  it('the shortcut flips what is shown, returning to "system" when that matches', () => {
    // A light system: system (light) → dark → system.
    expect(nextThemeChoice('light', false)).toBe('dark');
    expect(nextThemeChoice('dark', false)).toBe('system');
    // A dark system: system (dark) → light → system.
    expect(nextThemeChoice('dark', true)).toBe('light');
    expect(nextThemeChoice('light', true)).toBe('system');
  });
});
