import { describe, expect, it } from 'vitest';
import {
  ECHO_CAP,
  MESSAGE_CAP,
  neighbour,
  oversize,
  parseCommand,
  readHostMessage,
  trusted,
} from './embedApi';

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
    // What the page's link could not hold: it would be dropped from the link the page writes.
    for (const value of ['b=1', '4 4', '\n'])
      expect(parseCommand({ type: 'tlbscope', command: 'set', key: 'costs.x', value })).toEqual({
        error: `set costs.x=${value}: costs.x's value may not hold "=" or blanks`,
      });
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

describe('hostile host messages', () => {
  const own = 'https://t.example';
  const read = (data: unknown, origin = own) => readHostMessage(origin, data, null, own);

  it('reads nothing of an untrusted page’s message beyond its type', () => {
    let touched = false;
    const data = {
      type: 'tlbscope',
      get command() {
        touched = true;
        return 'next';
      },
    };
    expect(read(data, 'https://evil.example')).toEqual({ kind: 'untrusted' });
    expect(touched).toBe(false);
    expect(read({ type: 'reveal' }, 'https://evil.example')).toEqual({ kind: 'ignore' });
    expect(read(data)).toEqual({ kind: 'command', command: { command: 'next' } });
    expect(touched).toBe(true);
  });

  it('refuses an oversize message by its size, without walking all of it', () => {
    const big = { type: 'tlbscope', command: 'next', pad: 'x'.repeat(MESSAGE_CAP + 1) };
    expect(read(big)).toEqual({
      kind: 'error',
      message: 'message too large: a command is at most 64 KiB',
    });
    const many = Object.fromEntries([...Array(20_000).keys()].map((i) => [`k${i}`, i]));
    expect(read({ ...many, type: 'tlbscope', command: 'next' }).kind).toBe('error');
    const arr = new Array(10_000_000);
    const t = performance.now();
    expect(read({ type: 'tlbscope', command: 'next', arr }).kind).toBe('error');
    expect(performance.now() - t).toBeLessThan(100);
    expect(read({ type: 'tlbscope', command: 'next', buf: new Uint8Array(MESSAGE_CAP) }).kind).toBe(
      'error',
    );
    expect(oversize({ a: 'x'.repeat(1000) })).toBe(false);
  });

  it('takes circular values without throwing and never echoes them whole', () => {
    const loop: Record<string, unknown> = { type: 'tlbscope' };
    loop.command = loop;
    loop.self = loop;
    expect(read(loop)).toEqual({
      kind: 'error',
      message: 'unknown command (an object); the commands are goto, next, prev, play, pause, set',
    });
    const long = 'y'.repeat(10_000);
    const r = read({ type: 'tlbscope', command: long });
    expect(r).toEqual({
      kind: 'error',
      message: 'command is 10,000 characters, more than the 16 it may have',
    });
    const cmd = read({ type: 'tlbscope', command: 'set', key: 'pcid', value: 'z'.repeat(1000) });
    expect(cmd.kind).toBe('error');
    const message = (cmd as { message: string }).message;
    expect(message.length).toBeLessThan(2 * ECHO_CAP);
    expect(message).toContain('(1,000 characters)');
    expect(read({ type: 'tlbscope', command: 'k'.repeat(16) })).toMatchObject({
      message: expect.stringContaining(`"${'k'.repeat(16)}"`),
    });
  });
});
