// Words for trace rows: what happened, in which kernel function, and why (the causal chain).
import { EventKind, kindName, type Trace } from '../trace/trace';
import { lowerBound, upperBound } from './intervals';
import { stepRow, timeRows } from './stepping';

/** The kernel function (or hardware action) each event kind models. */
export const KERNEL_FUNCTION: Partial<Record<EventKind, string>> = {
  [EventKind.TaskRun]: 'scheduler: task on CPU',
  [EventKind.PreemptOff]: 'get_cpu() … put_cpu()',
  [EventKind.IrqsOff]: 'local_irq_disable() … local_irq_enable()',
  [EventKind.FlushRange]: 'flush_tlb_mm_range()',
  [EventKind.IpiWait]: 'smp_call_function_many_cond() → csd_lock_wait()',
  [EventKind.IpiHandler]: '__flush_smp_call_function_queue() (call-function IPI)',
  [EventKind.FlushTlbFunc]: 'flush_tlb_func()',
  [EventKind.SwitchMm]: 'switch_mm_irqs_off()',
  [EventKind.Lazy]: 'enter_lazy_tlb()',
  [EventKind.IpiSent]: 'smp_call_function_many_cond(): llist_add + send IPI',
  [EventKind.CsdUnlocked]: 'csd_unlock() (SYNC ack after the function ran)',
  [EventKind.TlbGenIncremented]: 'inc_mm_tlb_gen()',
  [EventKind.TlbMissed]: 'page walk after a TLB miss',
  [EventKind.TaskWoken]: 'try_to_wake_up() of a high-priority task',
  [EventKind.InvariantViolated]: 'invariant check',
  [EventKind.CpumaskCleared]: 'cpumask_clear_cpu(mm_cpumask)',
  [EventKind.TaskPreempted]: 'scheduler: preempt_schedule()',
  [EventKind.TaskMigrated]: 'scheduler: task migrated to this CPU',
  [EventKind.TlbiBroadcast]: '__flush_tlb_range(): TLBI …IS + DSB ISH',
  [EventKind.InterconnectQueued]: 'DVM broadcast queued on the interconnect',
  [EventKind.VictimStall]: 'hardware: performing another CPU’s broadcast TLBI',
  [EventKind.LocalTlbi]: 'local TLBI (VALE1 / ASIDE1 / VMALLE1) + DSB NSH',
  [EventKind.PageWalk]: 'hardware page-table walk',
  [EventKind.AsidRollover]: 'flush_context(): ASID generation rollover',
  [EventKind.TlbFlushChecked]: 'tlb_flush_check() (skip-broadcast series)',
  [EventKind.PreemptCountOp]: 'preempt_disable() / preempt_enable()',
  [EventKind.AsidAllocated]: 'new_context(): ASID allocated',
  [EventKind.NrActiveMmChanged]: 'nr_active_mm updated (skip-broadcast series)',
};

export function kernelFunction(kind: number): string {
  return KERNEL_FUNCTION[kind as EventKind] ?? kindName(kind);
}

/** One line describing a row, for the event log and the inspector. */
export function describeRow(trace: Trace, i: number): string {
  const k = trace.kind[i];
  const cpu = trace.cpu[i];
  switch (k) {
    case EventKind.IpiSent:
      return `CPU ${cpu} sends a call-function IPI to CPU ${trace.arg[i]}`;
    case EventKind.CsdUnlocked:
      return `CPU ${cpu} unlocks CPU ${trace.arg[i]}'s csd: its flush is done`;
    case EventKind.IpiHandler:
      return `CPU ${cpu} handles the IPI from CPU ${trace.arg[i]}`;
    case EventKind.FlushRange:
      return `CPU ${cpu} flushes ${trace.arg[i]} page(s) of mm ${trace.mm[i]}, tlb_gen → ${trace.gen[i]}`;
    case EventKind.TlbGenIncremented:
      return `mm ${trace.mm[i]} tlb_gen becomes ${trace.gen[i]}`;
    case EventKind.FlushTlbFunc:
      return `CPU ${cpu} runs flush_tlb_func (${['nothing to do', 'partial flush', 'full flush'][trace.arg[i]] ?? `mode ${trace.arg[i]}`})`;
    case EventKind.IrqsOff:
      // A recording's arg 1: no irq_disable/irq_enable bounded it; a held timer tick did.
      return trace.arg[i] === 1
        ? `CPU ${cpu} had interrupts off (inferred: a late IPI and the timer tick due meanwhile were taken together as it ended)`
        : `CPU ${cpu}: ${kindName(k)}`;
    case EventKind.InvariantViolated:
      return `CPU ${cpu}: ${trace.strings[trace.arg[i]] ?? 'invariant violated'}`;
    default:
      return `CPU ${cpu}: ${kindName(k)}`;
  }
}

/** The row's causes, oldest first, ending with the row itself. */
export function causalChain(trace: Trace, row: number): number[] {
  const chain = [row];
  const seen = new Set([row]);
  let p = trace.parent[row];
  while (p >= 0 && p < trace.n && !seen.has(p)) {
    chain.push(p);
    seen.add(p);
    p = trace.parent[p];
  }
  return chain.reverse();
}

/** The next row strictly after time t (or -1). Rows at equal times step by index. */
export function nextRow(trace: Trace, current: number | null, t: number): number {
  return stepRow(timeRows(trace.time), current, t, 1);
}

/** The previous row strictly before time t (or -1). */
export function prevRow(trace: Trace, current: number | null, t: number): number {
  return stepRow(timeRows(trace.time), current, t, -1);
}

/** Rows whose start lies in [t0, t1], at most `limit` of them starting from the first. */
export function rowsInWindow(
  trace: Trace,
  t0: number,
  t1: number,
  limit: number,
): { rows: number[]; total: number } {
  const a = lowerBound(trace.time, t0);
  const b = upperBound(trace.time, t1);
  const rows: number[] = [];
  for (let i = a; i < b && rows.length < limit; i++) rows.push(i);
  return { rows, total: b - a };
}

/** [0, end of the last event] of one or more traces: the full-run window. */
export function extentOf(...traces: Trace[]): [number, number] {
  let end = 0;
  for (const t of traces) {
    if (t.remote) end = Math.max(end, t.remote.end);
    for (let i = 0; i < t.n; i++) end = Math.max(end, t.time[i] + t.dur[i]);
  }
  return [0, end > 0 ? end : 1];
}
