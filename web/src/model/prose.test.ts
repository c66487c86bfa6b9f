import { describe, expect, it } from 'vitest';
import { parseProse } from './prose';

describe('parseProse', () => {
  it('splits paragraphs on blank lines and joins wrapped lines', () => {
    expect(parseProse('one\ntwo\n\n  three  ')).toEqual([
      [{ kind: 'text', text: 'one two' }],
      [{ kind: 'text', text: 'three' }],
    ]);
  });

  it('recognises code spans and bold', () => {
    expect(parseProse('calls `flush_tlb_func()` **after** the IPIs')).toEqual([
      [
        { kind: 'text', text: 'calls ' },
        { kind: 'code', text: 'flush_tlb_func()' },
        { kind: 'text', text: ' ' },
        { kind: 'bold', text: 'after' },
        { kind: 'text', text: ' the IPIs' },
      ],
    ]);
  });

  it('keeps markup-looking text as plain text', () => {
    expect(parseProse('<img src=x onerror=alert(1)>')).toEqual([
      [{ kind: 'text', text: '<img src=x onerror=alert(1)>' }],
    ]);
  });
});
