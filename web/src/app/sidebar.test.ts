import { describe, expect, it } from 'vitest';
import { NARROW, NARROW_GUIDED, readSidebarOpen, SIDEBAR_KEY, writeSidebarOpen } from './sidebar';

const memory = () => {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
  };
};

describe('the sidebar’s remembered state', () => {
  it('follows the screen width until the reader chooses, then the choice', () => {
    const s = memory();
    expect(readSidebarOpen(s, 1440)).toBe(true);
    expect(readSidebarOpen(s, 800)).toBe(false);
    writeSidebarOpen(s, false);
    expect(s.getItem(SIDEBAR_KEY)).toBe('closed');
    expect(readSidebarOpen(s, 2560)).toBe(false);
    writeSidebarOpen(s, true);
    expect(readSidebarOpen(s, 800)).toBe(true);
  });

  it('falls back to the width when storage fails or holds something else', () => {
    const s = memory();
    s.setItem(SIDEBAR_KEY, 'sideways');
    expect(readSidebarOpen(s, NARROW)).toBe(true);
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readSidebarOpen(throwing, NARROW - 1)).toBe(false);
    expect(() => writeSidebarOpen(throwing, true)).not.toThrow();
  });

  it('in a guided step, keeps the width for the narration below 1200 px until the reader chooses', () => {
    const s = memory();
    expect(readSidebarOpen(s, 1024, true)).toBe(false);
    expect(readSidebarOpen(s, 1024, false)).toBe(true);
    expect(readSidebarOpen(s, NARROW_GUIDED, true)).toBe(true);
    writeSidebarOpen(s, true);
    expect(readSidebarOpen(s, 1024, true)).toBe(true);
  });
});
