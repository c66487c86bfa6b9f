// The colour theme: the reader's choice (light, dark, or the system's), remembered in
// localStorage across visits. A link's theme=light|dark wins over it for that page, so a
// shared picture looks as it did to its author. app.css and talk.css read `data-theme` on the
// root element; no attribute means the system's `prefers-color-scheme`.
import { useCallback, useEffect, useState } from 'react';
import type { Theme } from './url';

export type ThemeChoice = Theme | 'system';

export const THEME_KEY = 'tlbscope-theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

/** What the store holds, or 'system' when it holds nothing valid (or cannot be read). */
export function readThemeChoice(store: Pick<Storage, 'getItem'> | null): ThemeChoice {
  try {
    const v = store?.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system'; // storage disabled (privacy settings, a sandboxed frame)
  }
}

export function writeThemeChoice(
  store: Pick<Storage, 'setItem' | 'removeItem'> | null,
  c: ThemeChoice,
) {
  try {
    if (c === 'system') store?.removeItem(THEME_KEY);
    else store?.setItem(THEME_KEY, c);
  } catch {
    // Not remembered, but still applied to this page.
  }
}

/** The root's data-theme: the link's theme, else the reader's choice; null follows the system. */
export function themeAttribute(
  linked: Theme | null | undefined,
  choice: ThemeChoice,
): Theme | null {
  return linked ?? (choice === 'system' ? null : choice);
}

/** The theme the page shows, given whether the system prefers dark. */
export function shownTheme(attr: Theme | null, systemDark: boolean): Theme {
  return attr ?? (systemDark ? 'dark' : 'light');
}

/**
 * The shortcut's next choice: the opposite of what is shown, stored as 'system' when that is
 * what the system shows anyway (so the page keeps following the system from then on).
 */
export function nextThemeChoice(shown: Theme, systemDark: boolean): ThemeChoice {
  const opposite: Theme = shown === 'dark' ? 'light' : 'dark';
  return opposite === (systemDark ? 'dark' : 'light') ? 'system' : opposite;
}

export const THEME_CHOICES = CHOICES;

const storage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};
const darkQuery = () =>
  typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-color-scheme: dark)')
    : null;

/** The reader's theme choice, applied to the root element, with a setter that remembers it. */
export function useTheme(linked: Theme | null | undefined) {
  const [choice, setChoiceState] = useState<ThemeChoice>(() => readThemeChoice(storage()));
  const [systemDark, setSystemDark] = useState(() => darkQuery()?.matches ?? false);
  useEffect(() => {
    const q = darkQuery();
    const onChange = () => setSystemDark(q?.matches ?? false);
    q?.addEventListener('change', onChange);
    // Another tab changed the choice.
    const onStorage = (e: StorageEvent) => {
      if (e.key === THEME_KEY || e.key === null) setChoiceState(readThemeChoice(storage()));
    };
    window.addEventListener('storage', onStorage);
    return () => {
      q?.removeEventListener('change', onChange);
      window.removeEventListener('storage', onStorage);
    };
  }, []);
  const attr = themeAttribute(linked, choice);
  useEffect(() => {
    const root = document.documentElement;
    if (attr) root.dataset.theme = attr;
    else delete root.dataset.theme;
  }, [attr]);
  const setChoice = useCallback((c: ThemeChoice) => {
    writeThemeChoice(storage(), c);
    setChoiceState(c);
  }, []);
  const shown = shownTheme(attr, systemDark);
  return { choice, setChoice, shown, next: nextThemeChoice(shown, systemDark) };
}
