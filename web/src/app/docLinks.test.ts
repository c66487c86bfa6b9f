import { describe, expect, it } from 'vitest';
import { docHref, docPath, splitIds } from './docLinks';

describe('docHref', () => {
  it('links a race or invariant id to its lowercase anchor under the site base', () => {
    expect(docHref('R8', '/')).toBe('/docs/model.html#r8');
    expect(docHref('I3', './')).toBe('./docs/model.html#i3');
    expect(docHref('R18', '/tlbscope')).toBe('/tlbscope/docs/model.html#r18');
  });
  it('gives no link for what is not an id the documentation has', () => {
    expect(docHref('R19', '/')).toBeNull();
    expect(docHref('I0', '/')).toBeNull();
    expect(docHref('r8', '/')).toBeNull();
    expect(docHref('PID3', '/')).toBeNull();
  });
});

describe('docPath', () => {
  it('names the markdown anchor the CLI prints', () => {
    expect(docPath('I17')).toBe('docs/model.md#i17');
    expect(docPath('X1')).toBeNull();
  });
});

describe('splitIds', () => {
  it('finds whole-word ids in prose and keeps the text around them', () => {
    expect(splitIds('breaks I7 (race R1), not I30 or CPU1')).toEqual([
      { text: 'breaks ' },
      { id: 'I7' },
      { text: ' (race ' },
      { id: 'R1' },
      { text: '), not I30 or CPU1' },
    ]);
  });
  it('returns plain text unchanged', () => {
    expect(splitIds('holds')).toEqual([{ text: 'holds' }]);
    expect(splitIds('')).toEqual([]);
  });
});
