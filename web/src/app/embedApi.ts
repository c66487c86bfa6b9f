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

/** A host message as a command, or why it is not one (null: not meant for tlbscope at all). */
export function parseCommand(data: unknown): Command | { error: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.type !== PROTOCOL) return null;
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
        ? { error: `set ${key}=${value}: ${problem}` }
        : { command: 'set', key, value, side };
    }
    default:
      return {
        error: `unknown command ${JSON.stringify(m.command)}; the commands are goto, next, prev, play, pause, set`,
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
