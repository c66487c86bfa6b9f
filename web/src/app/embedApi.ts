// The host API of an embed (README "Embedding"): what a page that holds tlbscope in an
// <iframe> may send it over postMessage, what it hears back, and whose messages count. Pure:
// the hook in useEmbedHost.ts does the listening and posting.
//
// Host → embed: { type: 'tlbscope', command: 'goto', step: 3 }   (1-based; 0 = free sandbox)
//               { type: 'tlbscope', command: 'next' | 'prev' | 'play' | 'pause' }
//               { type: 'tlbscope', command: 'set', key: 'pcid', value: 'off', side?: 'A' | 'B' }
// Embed → host: { type: 'tlbscope', event: 'ready' | 'step' | 'run' | 'error', ...details }
import { settingProblem } from './linkCheck';

export const PROTOCOL = 'tlbscope';

export type Command =
  | { command: 'goto'; step: number }
  | { command: 'next' }
  | { command: 'prev' }
  | { command: 'play' }
  | { command: 'pause' }
  | { command: 'set'; key: string; value: string; side: 'A' | 'B' };

export interface StepInfo {
  /** 1-based step shown; null = the free sandbox. */
  step: number | null;
  steps: number;
  title: string | null;
}

export type EmbedEvent =
  | ({ event: 'ready'; scenario: string } & StepInfo)
  | ({ event: 'step' } & StepInfo)
  | {
      event: 'run';
      scenario: string;
      seed: number;
      settings: string[];
      settingsB: string[] | null;
      events: number;
      eventsB: number | null;
    }
  | { event: 'error'; message: string };

/** Bounds on a host message, so that no message can make the embed do much work. */
export const MESSAGE_CAP = 64 * 1024;
export const FIELD_CAPS = { command: 16, key: 128, value: 1024 } as const;
/** How much of a value an error event may echo back. */
export const ECHO_CAP = 256;

/** `s` cut to ECHO_CAP characters, saying how long it was. */
export function clip(s: string): string {
  return s.length <= ECHO_CAP
    ? s
    : `${s.slice(0, ECHO_CAP)}… (${s.length.toLocaleString('en')} characters)`;
}

/** A value as an error may quote it: never throws (circular, BigInt, huge), never long. */
function quote(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(clip(v));
  if (typeof v === 'object' && v !== null) return Array.isArray(v) ? '(an array)' : '(an object)';
  return clip(String(v));
}

/**
 * Whether `data` is larger than `cap`, counted as characters of strings and property names plus
 * a few for every other value. Walks at most `cap` units whatever the value holds (cycles, a
 * million keys, a huge buffer), so the check costs no more than the cap.
 */
export function oversize(data: unknown, cap = MESSAGE_CAP): boolean {
  let size = 0;
  const seen = new Set<object>();
  const todo: unknown[] = [data];
  while (todo.length > 0) {
    const v = todo.pop();
    if (typeof v === 'string') size += v.length;
    else if (typeof v !== 'object' || v === null) size += 8;
    else if (!seen.has(v)) {
      seen.add(v);
      size += 8;
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) size += v.byteLength;
      else if (typeof Blob !== 'undefined' && v instanceof Blob) size += v.size;
      else if (v instanceof Map || v instanceof Set) {
        for (const e of v) {
          todo.push(e);
          if (todo.length + size > cap) return true;
        }
      } else if (Array.isArray(v)) {
        if (v.length > cap) return true;
        for (let i = 0; i < v.length && size + todo.length <= cap; i++) todo.push(v[i]);
      } else {
        for (const k in v) {
          size += k.length;
          todo.push((v as Record<string, unknown>)[k]);
          if (size + todo.length > cap) return true;
        }
      }
    }
    if (size > cap) return true;
  }
  return false;
}

/** What to do with one postMessage the embed received. */
export type HostMessage =
  | { kind: 'ignore' }
  | { kind: 'untrusted' }
  | { kind: 'error'; message: string }
  | { kind: 'command'; command: Command };

/**
 * A host message judged in the order that keeps a hostile page's messages cheap: its origin
 * first (an untrusted page's message is not read beyond its `type`), its size second, and only
 * then its fields. Never throws.
 */
export function readHostMessage(
  origin: string,
  data: unknown,
  allowed: string | null,
  own: string,
): HostMessage {
  try {
    if (!trusted(origin, allowed, own)) {
      const ours =
        typeof data === 'object' && data !== null && (data as { type?: unknown }).type === PROTOCOL;
      return { kind: ours ? 'untrusted' : 'ignore' };
    }
    if (typeof data !== 'object' || data === null) return { kind: 'ignore' };
    if ((data as { type?: unknown }).type !== PROTOCOL) return { kind: 'ignore' };
    if (oversize(data))
      return {
        kind: 'error',
        message: `message too large: a command is at most ${MESSAGE_CAP / 1024} KiB`,
      };
    const parsed = parseCommand(data);
    if (parsed === null) return { kind: 'ignore' };
    return 'error' in parsed
      ? { kind: 'error', message: parsed.error }
      : { kind: 'command', command: parsed };
  } catch (e) {
    return { kind: 'error', message: `unreadable message: ${clip(String(e))}` };
  }
}

/** A field over its cap, named with its length and the cap. */
function tooLong(m: Record<string, unknown>): string | null {
  for (const [f, cap] of Object.entries(FIELD_CAPS)) {
    const v = m[f];
    if (typeof v === 'string' && v.length > cap)
      return `${f} is ${v.length.toLocaleString('en')} characters, more than the ${cap} it may have`;
  }
  return null;
}

/** A host message as a command, or why it is not one (null: not meant for tlbscope at all). */
export function parseCommand(data: unknown): Command | { error: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.type !== PROTOCOL) return null;
  const long = tooLong(m);
  if (long) return { error: long };
  switch (m.command) {
    case 'goto': {
      const step = m.step;
      return typeof step === 'number' && Number.isInteger(step) && step >= 0
        ? { command: 'goto', step }
        : { error: 'goto needs step: a whole number, 1 for the first step, 0 for the sandbox' };
    }
    case 'next':
    case 'prev':
    case 'play':
    case 'pause':
      return { command: m.command };
    case 'set': {
      const { key, value } = m;
      const side = m.side ?? 'A';
      if (typeof key !== 'string' || typeof value !== 'string')
        return { error: 'set needs key and value, both strings (value "" resets)' };
      if (side !== 'A' && side !== 'B') return { error: 'set: side is "A" or "B"' };
      const problem = value === '' ? null : settingProblem(`${key}=${value}`);
      return problem
        ? { error: `set ${clip(key)}=${clip(value)}: ${problem}` }
        : { command: 'set', key, value, side };
    }
    default:
      return {
        error: `unknown command ${quote(m.command)}; the commands are goto, next, prev, play, pause, set`,
      };
  }
}

/**
 * Whether a message from `origin` may drive this embed: the `origin=` the link names, or
 * without one only the embed's own origin (a deck served next to tlbscope).
 */
export function trusted(origin: string, allowed: string | null, own: string): boolean {
  return origin === (allowed ?? own);
}

/** The step a `next` or `prev` leads to (0-based; null = the free sandbox), or undefined. */
export function neighbour(
  index: number | null,
  steps: number,
  dir: 1 | -1,
): number | null | undefined {
  if (steps === 0) return undefined;
  if (index === null) return dir > 0 ? 0 : steps - 1;
  const to = index + dir;
  if (to < 0) return undefined;
  return to >= steps ? null : to;
}
