// What the recording importer works with: one line of a kernel trace, split into its common
// columns (who, where, when, which event) and the event's own text, before any meaning is
// given to it. Every format's line parser produces these; build.ts turns them into trace rows.

export type RecordingFormat = 'tracefs' | 'tracefs-latency' | 'trace-cmd' | 'perf';

export const FORMAT_NAMES: Record<RecordingFormat, string> = {
  tracefs: 'tracefs text (trace or trace_pipe)',
  'tracefs-latency': 'tracefs latency format',
  'trace-cmd': 'trace-cmd report',
  perf: 'perf script',
};

/** Events the builder (build.ts) gives meaning to; every other name is counted as unknown. */
export const KNOWN_EVENT_NAMES = [
  'tlb_flush',
  'sched_switch',
  'ipi_send_cpu',
  'ipi_send_cpumask',
  'csd_queue_cpu',
  'csd_function_entry',
  'csd_function_exit',
  'call_function_entry',
  'call_function_exit',
  'call_function_single_entry',
  'call_function_single_exit',
  'ipi_entry',
  'ipi_exit',
  'irq_disable',
  'irq_enable',
  'preempt_disable',
  'preempt_enable',
  'local_timer_entry',
  'sys_enter',
  'sys_exit',
] as const;

export interface RawEvent {
  /** 1-based line number in the input. */
  line: number;
  comm: string;
  pid: number;
  cpu: number;
  /** Whole seconds of the timestamp (kept apart so ns stay exact on long uptimes). */
  sec: number;
  /** Nanoseconds within `sec`. */
  nsec: number;
  /** The irqs-off / need-resched / hardirq / preempt-depth column, when the format has one. */
  flags: string | null;
  /** Event name without its subsystem (`tlb_flush`, not `tlb:tlb_flush`). */
  name: string;
  /** The event's printed fields. */
  body: string;
}

/**
 * Events whose flags column said interrupts (bit 1) or preemption (bit 2) were off as they fired:
 * instants, in the trace's time (ns from its first row), drawn as small marks on their CPU's lane.
 */
export interface FlagInstants {
  time: Float64Array;
  cpu: Uint16Array;
  bits: Uint8Array;
  /** 1-based input line. */
  line: Int32Array;
  /** Flagged events beyond the ones kept (FLAG_INSTANTS_KEPT): counted, not drawn. */
  dropped: number;
}

export const FLAG_IRQS_OFF = 1;
export const FLAG_PREEMPT_OFF = 2;

/** A line that could not be read, named by number. */
export interface LineIssue {
  line: number;
  message: string;
  /** The start of the offending line, for the message. */
  excerpt: string;
}

/** A line parser's answer: an event, a line to pass over (comments, headers), or a problem. */
export type LineResult = RawEvent | 'skip' | { problem: string };

/** How much of a line a message shows: a 10 MB line must not be put whole into the page. */
export const EXCERPT_CHARS = 120;

/** The start of a line for a message: unprintable characters replaced, clipped with "…". */
export function excerpt(text: string): string {
  // Clip before replacing, so a huge line costs no more than its first characters.
  const head = text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS - 1) : text;
  const clean = head.replace(/[^\x20-\x7e]/g, '�');
  return text.length > EXCERPT_CHARS ? `${clean}…` : clean;
}

/** "1341.012308" → [1341, 12308000]; null if not a timestamp. */
export function splitSeconds(ts: string): [number, number] | null {
  const m = /^(\d+)\.(\d{1,9})$/.exec(ts);
  if (!m) return null;
  return [Number(m[1]), Number(m[2].padEnd(9, '0'))];
}

/** Why a timestamp cannot be read exactly, or null. */
function imprecise(ts: string): string | null {
  const [whole, frac = ''] = ts.split('.');
  if (!Number.isSafeInteger(Number(whole)))
    return `timestamp '${excerpt(ts)}' has more digits than a double holds exactly (beyond 2^53): every duration would read as 0 ns`;
  if (frac.length > 9)
    return `timestamp '${excerpt(ts)}' has more than 9 decimals (finer than a nanosecond)`;
  return null;
}

/**
 * `e` stamped `seconds` ("1341.012308", as the text formats print it), or the problem. The
 * caller's literal (with `sec` and `nsec` 0) is stamped in place: copying it with a spread, once
 * per line, was a fifth of a large import's time.
 */
export function stamped(seconds: string, e: RawEvent): LineResult {
  const ts = splitSeconds(seconds);
  if (!ts || !Number.isSafeInteger(ts[0]))
    return { problem: imprecise(seconds) ?? `bad timestamp '${excerpt(seconds)}'` };
  e.sec = ts[0];
  e.nsec = ts[1];
  return e;
}

/** What only a recording has per row, beside the trace's columns (the Perfetto export shows it). */
export interface RowExtras {
  reason?: Int8Array;
  pages?: Float64Array;
  line?: Int32Array;
  tasks?: Record<number, string>;
}
