// A per-event CSV dropped on the Data view, handed to the explorer's event overlay across one
// page load: kept in this tab's sessionStorage (never sent anywhere) and taken once.
import { isLoadError } from './csv';
import { EVENT_COLUMNS, parseMeasuredEvents, type MeasuredEvents } from './eventCsv';

const KEY = 'tlbscope:handed-events';

/** Whether a file's headers are the per-event form (time_ns, cpu, event, …). */
export function isPerEventHeader(headers: readonly string[]): boolean {
  const h = new Set(headers.map((x) => x.trim().toLowerCase()));
  return EVENT_COLUMNS.filter((c) => c !== 'duration_ns').every((c) => h.has(c));
}

export function handEvents(text: string, file: string, store: Storage = sessionStorage): void {
  store.setItem(KEY, JSON.stringify({ text, file }));
}

/** The handed events, once (null when none were handed or they no longer parse). */
export function takeHandedEvents(store: Storage | undefined = globalThis.sessionStorage) {
  const kept = store?.getItem(KEY);
  if (!kept) return null;
  store!.removeItem(KEY);
  const { text, file } = JSON.parse(kept) as { text: string; file: string };
  const parsed = parseMeasuredEvents(text, file);
  return isLoadError(parsed) ? null : (parsed as MeasuredEvents);
}
