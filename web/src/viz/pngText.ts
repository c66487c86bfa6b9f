// A text chunk (tEXt) in a PNG: how an exported PNG carries its state link, as the SVG does in
// its <metadata>, so a PNG dropped back on the page reopens its view too. Text is Latin-1 by
// the PNG spec; a URL as the browser serialises it is ASCII.

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

function latin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 255) throw new Error(`PNG text must be Latin-1; character ${i} is not`);
    out[i] = c;
  }
  return out;
}

/** `png` with a tEXt chunk `keyword`=`text` added just before its IEND chunk. */
export function addPngText(png: Uint8Array, keyword: string, text: string): Uint8Array {
  if (!isPng(png)) throw new Error('not a PNG file');
  if (!/^[\x20-\x7e]{1,79}$/.test(keyword)) throw new Error(`bad PNG text keyword: ${keyword}`);
  const key = latin1(keyword);
  const data = new Uint8Array(key.length + 1 + text.length);
  data.set(key);
  data.set(latin1(text), key.length + 1);
  const typed = new Uint8Array(4 + data.length);
  typed.set(latin1('tEXt'));
  typed.set(data, 4);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(typed, 4);
  view.setUint32(8 + data.length, crc32(typed));
  const iend = chunkOffsets(png).find((c) => c.type === 'IEND');
  if (!iend) throw new Error('PNG without an IEND chunk');
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, iend.at));
  out.set(chunk, iend.at);
  out.set(png.subarray(iend.at), iend.at + chunk.length);
  return out;
}

/** What a PNG says under a keyword: its text, a chunk too large to read, or nothing. */
export type PngText = { text: string } | { tooLarge: number } | null;

/** Bytes as Latin-1, in slices: a spread of a large array would overflow the call stack. */
function latin1Text(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192)
    s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 8192)));
  return s;
}

/** Whether `data` starts with `keyword` and a NUL. */
function named(data: Uint8Array, keyword: string): boolean {
  if (data.length <= keyword.length || data[keyword.length] !== 0) return false;
  for (let i = 0; i < keyword.length; i++) if (data[i] !== keyword.charCodeAt(i)) return false;
  return true;
}

/**
 * The text of the first tEXt (or uncompressed iTXt) chunk named `keyword` whose checksum holds.
 * A chunk named so whose length field says it holds more than `cap` bytes of text is skipped
 * unread (not even its checksum is computed): `{ tooLarge }` gives its length.
 */
export function readPngText(png: Uint8Array, keyword: string, cap = Infinity): PngText {
  if (!isPng(png)) return null;
  let tooLarge = 0;
  for (const c of chunkOffsets(png)) {
    if (c.type !== 'tEXt' && c.type !== 'iTXt') continue;
    const head = png.subarray(c.at + 8, c.at + 8 + Math.min(c.length, keyword.length + 1));
    if (!named(head, keyword)) continue;
    if (c.length - keyword.length - 1 > cap) {
      tooLarge ||= c.length;
      continue;
    }
    const typed = png.subarray(c.at + 4, c.at + 8 + c.length);
    const crc = new DataView(png.buffer, png.byteOffset + c.at + 8 + c.length, 4).getUint32(0);
    if (crc32(typed) !== crc) continue;
    const rest = typed.subarray(4 + keyword.length + 1);
    if (c.type === 'tEXt') return { text: latin1Text(rest) };
    // iTXt: compression flag and method, then a language tag and a translated keyword, each
    // NUL-ended, then UTF-8 text. tlbscope never compresses, so a compressed one is not ours.
    if (rest[0] !== 0) continue;
    const lang = rest.indexOf(0, 2);
    const translated = lang < 0 ? -1 : rest.indexOf(0, lang + 1);
    if (translated < 0) continue;
    return { text: new TextDecoder().decode(rest.subarray(translated + 1)) };
  }
  return tooLarge ? { tooLarge } : null;
}

function chunkOffsets(png: Uint8Array): { at: number; length: number; type: string }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: { at: number; length: number; type: string }[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (at + 12 + length > png.length) break;
    out.push({ at, length, type });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return out;
}
