import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { addPngText, isPng, readPngText } from './pngText';

function chunk(type: string, data: Uint8Array): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

/** A 2×1 RGB PNG, built by the spec with Node's zlib. */
function tinyPng(): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.from([0, 255, 0, 0, 0, 0, 255]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

const LINK = 'http://127.0.0.1:4173/tlbscope/demo/?scenario=x86-lazy-tlb&step=2&set=pcid%3Don';

describe('PNG text chunks', () => {
  it('adds a tEXt chunk before IEND that reads back, with the checksum zlib computes', () => {
    const png = tinyPng();
    const out = addPngText(png, 'tlbscope-state', LINK);
    expect(isPng(out)).toBe(true);
    expect(out.length).toBe(png.length + 12 + 'tlbscope-state'.length + 1 + LINK.length);
    expect(readPngText(out, 'tlbscope-state')).toEqual({ text: LINK });
    expect(readPngText(out, 'Title')).toBeNull();
    const b = Buffer.from(out);
    const at = b.indexOf('tEXt', 0, 'latin1') - 4;
    const len = b.readUInt32BE(at);
    expect(b.readUInt32BE(at + 8 + len)).toBe(crc32(b.subarray(at + 4, at + 8 + len)));
    // Still ends with the IEND chunk, untouched.
    expect(Buffer.from(out.subarray(-12)).equals(Buffer.from(png.subarray(-12)))).toBe(true);
  });

  it('ignores a chunk whose checksum is wrong, and files that are not PNG', () => {
    const out = addPngText(tinyPng(), 'tlbscope-state', LINK);
    const bad = out.slice();
    const at = Buffer.from(bad).indexOf(LINK, 0, 'latin1');
    bad[at] ^= 1;
    expect(readPngText(bad, 'tlbscope-state')).toBeNull();
    expect(readPngText(new TextEncoder().encode('<svg/>'), 'tlbscope-state')).toBeNull();
    expect(() => addPngText(new Uint8Array(8), 'k', 'v')).toThrow('not a PNG');
  });

  it('refuses text PNG cannot hold', () => {
    expect(() => addPngText(tinyPng(), 'k', 'snowman ☃')).toThrow('Latin-1');
    expect(() => addPngText(tinyPng(), '', 'v')).toThrow('keyword');
  });

  it('skips an over-cap text chunk unread, and reads a large one within the cap in slices', () => {
    const withChunk = (type: string, data: Uint8Array) => {
      const png = tinyPng();
      return new Uint8Array(
        Buffer.concat([png.subarray(0, -12), chunk(type, data), png.subarray(-12)]),
      );
    };
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x61);
    huge.write('tlbscope-state\0', 'latin1');
    const big = withChunk('tEXt', huge);
    const t = performance.now();
    expect(readPngText(big, 'tlbscope-state', 128 * 1024)).toEqual({ tooLarge: huge.length });
    expect(performance.now() - t).toBeLessThan(50);
    // 2 MB of text read whole (no cap): no "Maximum call stack size exceeded".
    const two = Buffer.alloc(2 * 1024 * 1024 + 15, 0x62);
    two.write('tlbscope-state\0', 'latin1');
    const read = readPngText(withChunk('tEXt', two), 'tlbscope-state');
    expect(read && 'text' in read && read.text.length).toBe(2 * 1024 * 1024);
  });

  it('reads an uncompressed iTXt chunk as UTF-8 and leaves a compressed one', () => {
    const itxt = (flag: number) =>
      Buffer.concat([
        Buffer.from('tlbscope-state\0', 'latin1'),
        Buffer.from([flag, 0]),
        Buffer.from('en\0\0', 'latin1'),
        Buffer.from(`${LINK}#☃`, 'utf8'),
      ]);
    const png = tinyPng();
    const make = (data: Buffer) =>
      new Uint8Array(Buffer.concat([png.subarray(0, -12), chunk('iTXt', data), png.subarray(-12)]));
    expect(readPngText(make(itxt(0)), 'tlbscope-state')).toEqual({ text: `${LINK}#☃` });
    expect(readPngText(make(itxt(1)), 'tlbscope-state')).toBeNull();
  });
});
