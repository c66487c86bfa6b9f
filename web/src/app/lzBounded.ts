// lz-string's decompressFromEncodedURIComponent with a bound on what it writes. The library's own
// has none: a short link can name dictionary entries that each grow by one character, so 128 KiB
// of link can unpack to gigabytes. This is the same algorithm (lz-string 1.5, MIT, © pieroxy),
// stopping as soon as the output passes `cap` characters.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
// By character code; a space is a '+' that a URL decoder turned into one. Others count as 0.
const VALUE = new Uint8Array(128);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
VALUE[32] = VALUE[43];

/** The text `input` unpacks to; null if it is damaged; `{ tooLarge }` past `cap` characters. */
export function decompressBounded(input: string, cap: number): string | null | { tooLarge: true } {
  if (input === '') return null;
  const s = input;
  const length = s.length;
  const value = (i: number): number => (i < length ? VALUE[s.charCodeAt(i) & 127] : 0);
  let val = value(0);
  let position = 32;
  let index = 1;
  const read = (n: number): number => {
    let bits = 0;
    for (let power = 1, max = 2 ** n; power !== max; power <<= 1) {
      const bit = val & position;
      position >>= 1;
      if (position === 0) {
        position = 32;
        val = value(index++);
      }
      if (bit > 0) bits |= power;
    }
    return bits;
  };

  const dictionary: string[] = ['', '', ''];
  let enlargeIn = 4;
  let dictSize = 4;
  let numBits = 3;
  const first = read(2);
  if (first === 2) return '';
  if (first > 2) return null;
  let w = String.fromCharCode(read(first === 0 ? 8 : 16));
  dictionary[3] = w;
  const result: string[] = [w];
  let size = w.length;
  for (;;) {
    if (index > length) return null;
    let c = read(numBits);
    if (c === 2) return result.join('');
    if (c < 2) {
      dictionary[dictSize++] = String.fromCharCode(read(c === 0 ? 8 : 16));
      c = dictSize - 1;
      enlargeIn--;
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
    let entry: string;
    if (c < dictSize && dictionary[c]) entry = dictionary[c];
    else if (c === dictSize) entry = w + w.charAt(0);
    else return null;
    size += entry.length;
    if (size > cap) return { tooLarge: true };
    result.push(entry);
    dictionary[dictSize++] = w + entry.charAt(0);
    enlargeIn--;
    w = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  }
}
