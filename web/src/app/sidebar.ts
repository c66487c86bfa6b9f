// Whether the explorer's settings sidebar is shown: the reader's last choice, remembered in
// localStorage; with none yet, shown on screens wide enough to spare it (≥ 1000 px), and in a
// guided step only from 1200 px: below that its 16 rem are what let the narration sit beside
// the timeline instead of above it, which is the height a comparison's B side needs.
import { useCallback, useState } from 'react';

export const SIDEBAR_KEY = 'tlbscope-sidebar';
export const NARROW = 1000;
export const NARROW_GUIDED = 1200;

/** The reader's remembered choice, or null when there is none (or storage fails). */
function remembered(store: Pick<Storage, 'getItem'> | null): boolean | null {
  try {
    const v = store?.getItem(SIDEBAR_KEY);
    if (v === 'open') return true;
    if (v === 'closed') return false;
  } catch {
    // storage disabled: fall back to the screen's width
  }
  return null;
}

export function readSidebarOpen(
  store: Pick<Storage, 'getItem'> | null,
  width: number,
  guided = false,
): boolean {
  return remembered(store) ?? width >= (guided ? NARROW_GUIDED : NARROW);
}

export function writeSidebarOpen(store: Pick<Storage, 'setItem'> | null, open: boolean): void {
  try {
    store?.setItem(SIDEBAR_KEY, open ? 'open' : 'closed');
  } catch {
    // Not remembered, but still applied to this page.
  }
}

const storage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** `guided`: a guided step is open (the default then depends on it, until the reader chooses). */
export function useSidebar(guided: boolean) {
  const [chosen, setChosen] = useState<boolean | null>(() => remembered(storage()));
  const open = chosen ?? readSidebarOpen(null, window.innerWidth, guided);
  const toggle = useCallback(() => {
    setChosen(() => {
      writeSidebarOpen(storage(), !open);
      return !open;
    });
  }, [open]);
  return { open, toggle };
}
