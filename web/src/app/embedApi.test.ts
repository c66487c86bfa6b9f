import { describe, expect, it } from 'vitest';
import { neighbour, parseCommand, trusted } from './embedApi';

describe('host commands', () => {
  it('reads every command the README lists', () => {
    expect(parseCommand({ type: 'tlbscope', command: 'goto', step: 2 })).toEqual({
      command: 'goto',
      step: 2,
    });
    for (const c of ['next', 'prev', 'play', 'pause'])
      expect(parseCommand({ type: 'tlbscope', command: c })).toEqual({ command: c });
    expect(parseCommand({ type: 'tlbscope', command: 'set', key: 'pcid', value: 'off' })).toEqual({
      command: 'set',
      key: 'pcid',
      value: 'off',
      side: 'A',
    });
    expect(
      parseCommand({ type: 'tlbscope', command: 'set', key: 'cpus', value: '', side: 'B' }),
    ).toEqual({ command: 'set', key: 'cpus', value: '', side: 'B' });
  });

  it('leaves other pages’ messages alone and names what is wrong with bad commands', () => {
    expect(parseCommand('hello')).toBeNull();
    expect(parseCommand({ type: 'reveal', method: 'next' })).toBeNull();
    expect(parseCommand({ type: 'tlbscope', command: 'goto', step: 1.5 })).toHaveProperty('error');
    expect(parseCommand({ type: 'tlbscope', command: 'set', key: 'pcid', value: 'x' })).toEqual({
      error: 'set pcid=x: pcid is one of on, off',
    });
    expect(parseCommand({ type: 'tlbscope', command: 'set', key: 'k' })).toHaveProperty('error');
    expect(parseCommand({ type: 'tlbscope', command: 'explode' })).toEqual({
      error: 'unknown command "explode"; the commands are goto, next, prev, play, pause, set',
    });
  });

  it('obeys the named origin, or without one only its own', () => {
    expect(trusted('https://a.example', 'https://a.example', 'https://t.example')).toBe(true);
    expect(trusted('https://t.example', 'https://a.example', 'https://t.example')).toBe(false);
    expect(trusted('https://t.example', null, 'https://t.example')).toBe(true);
    expect(trusted('https://evil.example', null, 'https://t.example')).toBe(false);
  });

  it('walks the steps, past the last into the sandbox, and starts them from the sandbox', () => {
    expect(neighbour(0, 3, 1)).toBe(1);
    expect(neighbour(2, 3, 1)).toBeNull();
    expect(neighbour(0, 3, -1)).toBeUndefined();
    expect(neighbour(null, 3, 1)).toBe(0);
    expect(neighbour(null, 3, -1)).toBe(2);
    expect(neighbour(null, 0, 1)).toBeUndefined();
  });
});
