import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { decompressBounded } from './lzBounded';

describe('bounded lz-string decompression', () => {
  it('unpacks what lz-string packs, as lz-string does', () => {
    const texts = [
      'a',
      '[machine]\ncpus = 4\n# ☃ snowman, é\n',
      'x'.repeat(10_000),
      Array.from({ length: 3000 }, (_, i) => `line ${i * 7919} ${String.fromCharCode(i)}`).join(
        '\n',
      ),
    ];
    for (const t of texts) {
      const packed = compressToEncodedURIComponent(t);
      expect(decompressBounded(packed, 1e7)).toBe(t);
      expect(decompressBounded(packed.replace(/\+/g, ' '), 1e7)).toBe(t);
    }
  });

  it('calls a cut-short or garbled text damaged, as lz-string would', () => {
    const packed = compressToEncodedURIComponent('[machine]\ncpus = 4\n'.repeat(20));
    expect(decompressBounded(packed.slice(0, 10), 1e7)).toBeNull();
    expect(decompressFromEncodedURIComponent(packed.slice(0, 10))).toBeFalsy();
    expect(decompressBounded('', 1e7)).toBeNull();
  });

  it('stops at the cap however far the text would unpack', () => {
    // How fast it stops is bench/main-thread-tasks.mjs's "bomb" class, not a timed test.
    const packed = compressToEncodedURIComponent('y'.repeat(300_000));
    expect(packed.length).toBeLessThan(3_000);
    expect(decompressBounded(packed, 64 * 1024)).toEqual({ tooLarge: true });
    expect(decompressBounded(packed, 299_999)).toEqual({ tooLarge: true });
    expect(decompressBounded(packed, 300_000)).toBe('y'.repeat(300_000));
  });
});
