// What marks read: the trace's columns, the spacing's positions and each kind's sub-track.
import { SPAN_TRACK } from '../model/lanes';
import type { PosMap } from '../model/spacing';
import { EventKind, type Trace } from '../trace/trace';

export interface Columns {
  trace: Trace;
  pos: PosMap;
}

// Sub-track for any kind, instants included: sends sit with the flush, acks with the wait.
const TRACK_OF = new Int8Array(256).fill(0);
for (const [k, t] of SPAN_TRACK) TRACK_OF[k] = t;
TRACK_OF[EventKind.IpiSent] = 3;
TRACK_OF[EventKind.CsdUnlocked] = 4;

export function trackOf(kind: number): number {
  return TRACK_OF[kind];
}

/** CSS custom property holding each kind's colour (shared by SVG classes and the canvas). */
const KIND_VAR: Record<number, string> = {
  [EventKind.TaskRun]: '--k-task',
  [EventKind.PreemptOff]: '--k-preempt',
  [EventKind.IrqsOff]: '--k-irqs',
  [EventKind.FlushRange]: '--k-flush',
  [EventKind.IpiHandler]: '--k-handler',
  [EventKind.IpiWait]: '--k-wait',
  [EventKind.FlushTlbFunc]: '--k-func',
  [EventKind.Lazy]: '--k-lazy',
  [EventKind.SwitchMm]: '--k-switch',
  [EventKind.TlbiBroadcast]: '--k-broadcast',
  [EventKind.InterconnectQueued]: '--k-queue',
  [EventKind.LocalTlbi]: '--k-local',
  [EventKind.VictimStall]: '--k-stall',
  [EventKind.PageWalk]: '--k-walk',
};
const FALLBACK: Record<string, string> = {
  '--k-task': '#c9d6e3',
  '--k-preempt': '#b8760a',
  '--k-irqs': '#c0392b',
  '--k-flush': '#2f6fb5',
  '--k-handler': '#2e8b57',
  '--k-wait': '#9b59b6',
  '--k-func': '#0f8799',
  '--k-lazy': '#a9b4c0',
  '--k-switch': '#6c7a89',
  '--k-stall': '#d35400',
  '--k-walk': '#6d4c41',
  '--k-broadcast': '#c2185b',
  '--k-queue': '#c95f8f',
  '--k-local': '#7c7b12',
  '--muted': '#5b6673',
  '--fg': '#1d232b',
  '--arrow-ipi': '#1d232b',
  '--arrow-ack': '#2e8b57',
  '--arrow-unpaired': '#b4530f',
};

/** Resolves colours from the element's computed style (so the canvas follows the theme). */
export function toPalette(el: Element | null): (name: string) => string {
  const style = el && typeof getComputedStyle === 'function' ? getComputedStyle(el) : null;
  const cache = new Map<string, string>();
  return (name) => {
    let c = cache.get(name);
    if (c === undefined) {
      c = style?.getPropertyValue(name).trim() || FALLBACK[name] || '#888';
      cache.set(name, c);
    }
    return c;
  };
}

/** The span kinds that have a colour of their own. */
export function colouredKinds(): number[] {
  return Object.keys(KIND_VAR).map(Number);
}

/** The light-theme colour a kind falls back to without a stylesheet. */
export function fallbackColour(name: string): string | undefined {
  return FALLBACK[name];
}

export function kindVar(kind: number): string {
  return KIND_VAR[kind] ?? '--muted';
}
