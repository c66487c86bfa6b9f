// An event's fields are found by searching for their key, as the pattern
// (?:^|[\s,])key[=:]\s*([^\s,]+) finds them: the first place the key follows the start, a blank
// or a comma and is followed by = or : and a value, skipping places where it is not.
import { expect, test } from 'vitest';
import { field, isInteger, isZeroPointer } from './payload';

const byPattern = (body: string, key: string) =>
  new RegExp(`(?:^|[\\s,])${key}[=:]\\s*([^\\s,]+)`).exec(body)?.[1] ?? null;

test('fields of the events the importer reads', () => {
  const bodies = [
    'func=flush_tlb_func, csd=0000000000000000',
    'cpu=1 callsite=on_each_cpu_cond_mask+0x20/0x60 func=flush_tlb_func csd=0x0000000000001001',
    'pages:-1 reason:remote IPI send (4)',
    'pages=1 reason=flush on task switch (0)',
    'xcsd=1 csd=2',
    'csd= , csd=3',
    'csd=',
    'csd:\u00a0x\u2028y',
    ',func:f',
  ];
  for (const b of bodies)
    for (const k of ['csd', 'func', 'pages', 'cpu'])
      expect({ b, k, v: field(b, k) }).toEqual({ b, k, v: byPattern(b, k) });
});

test('bodies made of keys, separators and blanks of every kind read the same (seeded)', () => {
  let seed = 35;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const parts = ['csd', 'cpu', '=', ':', ',', ' ', '\t', '\u00a0', '\u3000', 'x', '0', 'cs', 'd'];
  for (let k = 0; k < 20000; k++) {
    let b = '';
    for (let j = rand(12); j >= 0; j--) b += parts[rand(parts.length)];
    for (const key of ['csd', 'cpu'])
      expect({ b, v: field(b, key) }).toEqual({ b, v: byPattern(b, key) });
  }
});

test('integers and null pointers read by hand as their patterns read them (seeded)', () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const parts = ['0', '1', '9', '-', 'x', '0x', 'a', ' ', '\u0660', '+', '(nil)'];
  const values = ['', '-', '0', '-0', '0x', '0x0', '00', 'x0', '0xx0', '0x00', '-12', '1-2'];
  for (let k = 0; k < 20000; k++) {
    let v = '';
    for (let j = rand(6); j >= 0; j--) v += parts[rand(parts.length)];
    values.push(v);
  }
  for (const v of values) {
    expect({ v, int: isInteger(v) }).toEqual({ v, int: /^-?\d+$/.test(v) });
    expect({ v, zero: isZeroPointer(v) }).toEqual({ v, zero: /^(0x)?0+$/.test(v) });
  }
});
