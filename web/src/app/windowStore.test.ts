import { describe, expect, it } from 'vitest';
import { createWindowStore } from './windowStore';

describe('window store', () => {
  it('tells every listener the new window and who set it, and only when it changes', () => {
    const store = createWindowStore([0, 10]);
    const seen: [number[], unknown][] = [];
    const off = store.subscribe((w, from) => seen.push([w, from]));
    store.set([2, 8], 'A');
    store.set([2, 8], 'B'); // the same window: nothing to tell
    off();
    store.set([3, 4]);
    expect(seen).toEqual([[[2, 8], 'A']]);
    expect(store.get()).toEqual([3, 4]);
  });
});
