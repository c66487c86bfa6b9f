// Whether the explorer's settings sidebar is shown: the reader's last choice, remembered in
// localStorage; with none yet, shown on screens wide enough to spare it (≥ 1000 px).
import { useCallback, useState } from 'react';

export const SIDEBAR_KEY = 'tlbscope-sidebar';
export const NARROW = 1000;

export function readSidebarOpen(store: Pick<Storage, 'getItem'> | null, width: number): boolean {
  try {
    const v = store?.getItem(SIDEBAR_KEY);
    if (v === 'open') return true;
    if (v === 'closed') return false;
  } catch {
    // storage disabled: fall back to the screen's width
  }
  return width >= NARROW;
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

export function useSidebar() {
  const [open, setOpen] = useState(() => readSidebarOpen(storage(), window.innerWidth));
  const toggle = useCallback(() => {
    setOpen((o) => {
      writeSidebarOpen(storage(), !o);
      return !o;
    });
  }, []);
  return { open, toggle };
}
