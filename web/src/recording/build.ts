// Turns a kernel recording's events into the simulator's trace columns, so the explorer's
// lanes, arrows and inspector draw a real machine the way they draw the model:
//   sched_switch                         → TaskRun spans (arg = pid; the idle task is not drawn)
//   tlb_flush reason "remote IPI send"   → FlushRange on the initiator (arg = pages, -1 = all),
//                                          lasting until the last target's csd unlock (the ack)
//   tlb_flush other reasons              → FlushTlbFunc (the csd_function_entry/exit span of
//                                          flush_tlb_func when recorded), SwitchMm on task switch
//   ipi_send_cpu / ipi_send_cpumask      → IpiSent per target (arg = target CPU), parented to
//                                          the shootdown it belongs to
//   call_function[_single]_entry/exit    → IpiHandler on the target, parented to the send it
//                                          answers (the oldest unanswered call-function send
//                                          to that CPU): the IPI arrow
//   csd_function_exit of a remote flush  → CsdUnlocked (arg = sender): the ack arrow
//   irq_disable … irq_enable             → IrqsOff span (preemptirq events, or a latency
//   preempt_disable … preempt_enable       tracer's section); PreemptOff likewise
//   flags column 'd' / preempt depth     → counted per event, never a span: two flagged
//                                          events do not show the flag stayed set between
// Each row keeps the kernel's flush reason, page count and source line beside the columns.
import type { Columns } from '../trace/trace';
import { EventKind } from '../trace/trace';
import {
  cpumaskOf,
  csdOf,
  funcOf,
  intField,
  isCallFunctionIpi,
  parseTlbFlush,
  REASON_SEND_IPI,
  REASON_SWITCH,
  REASON_WRONG_CPU,
} from './payload';
import { heldInterrupts, MIN_LATE_NS, type Delivery } from './heldTicks';
import { RowColumns } from './rowColumns';
import {
  excerpt,
  FLAG_IRQS_OFF,
  FLAG_PREEMPT_OFF,
  type FlagInstants,
  type LineIssue,
  KNOWN_EVENT_NAMES,
  type RawEvent,
} from './types';

/**
 * Flag instants kept for drawing: a million-line recording flags most of its events, and the
 * timeline draws at most a few thousand marks a window anyway; past this they are counted only.
 */
export const FLAG_INSTANTS_KEPT = 200_000;

/** Events the builder gives meaning to; every other name is counted as unknown. */
export const KNOWN_EVENTS = new Set<string>(KNOWN_EVENT_NAMES);

/**
 * A send older than this when a handler starts is not what that handler answers. Interrupts off
 * hold an IPI for as long as they last (a serial console line: 10-15 ms on this project's
 * guest), so the bound is the kernel's own for a csd never answered: csd_lock_timeout's
 * default, 5 s, after which it reports the stuck CPU.
 */
const PAIR_WINDOW_NS = 5e9;

/** The trace's columns (what a model run sends) and what only a recording knows. */
export interface RecordingColumns extends Columns {
  /** tlb_flush_reason code of flush rows, -1 elsewhere. */
  reason: Int8Array;
  /** Page count of flush rows (-1 = all), NaN elsewhere. */
  pages: Float64Array;
  /** 1-based input line each row came from. */
  line: Int32Array;
}

export interface Built {
  columns: RecordingColumns;
  cpus: number;
  /** pid → the last command name seen for it. */
  tasks: Record<number, string>;
  /** Event names not understood, with counts. */
  unknown: Record<string, number>;
  /** Problems found while giving meaning to parsed lines. */
  issues: LineIssue[];
  /** Facts the summary needs that are not rows. */
  counts: {
    events: number;
    tlbFlush: number;
    ipiSends: number;
    callFunctionSends: number;
    shootdownSends: number;
    flushRequests: number;
    pairedSends: number;
    unpairedSends: number;
    hasHandlers: boolean;
    hasFlags: boolean;
    /** irq_disable/irq_enable events (or an irqsoff tracer section): irqs-off spans are known. */
    irqsBounded: boolean;
    preemptBounded: boolean;
    /** IrqsOff spans inferred from a timer tick held with a late IPI (heldTicks.ts). */
    irqsInferred: number;
    /** Events whose flags column shows interrupts off / a preempt count. */
    irqsFlagged: number;
    preemptFlagged: number;
    /** Shootdowns whose end came from a csd unlock (the ack) or the initiator's own flush. */
    csdEnded: number;
    /** Shootdowns whose end came from a target's tlb_flush only (no csd events). */
    targetEnded: number;
  };
  /** Seconds of the first event's timestamp (times are ns after it). */
  startSeconds: number;
  /** Single events' own irqs-off / preempt-off flags, as instants. */
  flagged: FlagInstants;
  /** Per madvise/munmap around one shootdown (raw_syscalls events), its time less the shootdown's. */
  syscallPath: Float64Array;
}

interface CsdFrame {
  func: string;
  csd: string | null;
  t: number;
  row: number;
}

interface CpuState {
  task: number;
  handler: number;
  csd: CsdFrame[];
  shootdown: number;
  /** The open shootdown still collecting its sends (until the local flush runs). */
  collecting: boolean;
  /** Start of the open irq_disable / preempt_disable section, or null. */
  irqs: number | null;
  preempt: number | null;
  /** The syscall under way (raw_syscalls:sys_enter) and the shootdowns begun in it. */
  sys: { nr: number; t: number; flushes: number[] } | null;
}

export class RecordingBuilder {
  private rows = new RowColumns();
  private state: CpuState[] = [];
  private pending = new Map<number, { row: number; t: number }[]>();
  private csds = new Map<string, { sender: number; shootdown: number }>();
  /** Per target CPU, the shootdown that last sent it an IPI: its tlb_flush answers that one. */
  private sentFor = new Map<number, number>();
  /** Shootdowns ended by csd events: a target's tlb_flush no longer says when they end. */
  private csdShootdowns = new Set<number>();
  private base: [number, number] | null = null;
  private maxCpu = -1;
  private sections: Parameters<RecordingBuilder['section']>[0][] = [];
  private flagTimes: number[] = [];
  private flagCpus: number[] = [];
  private flagBits: number[] = [];
  private flagLines: number[] = [];
  private flagDropped = 0;
  readonly tasks: Record<number, string> = {};
  readonly unknown: Record<string, number> = {};
  readonly issues: LineIssue[] = [];
  readonly counts: Built['counts'] = {
    events: 0,
    tlbFlush: 0,
    ipiSends: 0,
    callFunctionSends: 0,
    shootdownSends: 0,
    flushRequests: 0,
    pairedSends: 0,
    unpairedSends: 0,
    hasHandlers: false,
    hasFlags: false,
    irqsBounded: false,
    preemptBounded: false,
    csdEnded: 0,
    targetEnded: 0,
    irqsFlagged: 0,
    preemptFlagged: 0,
    irqsInferred: 0,
  };
  /** Per syscall around one shootdown, its time less the shootdown's (sysExit). */
  private syscallPath: number[] = [];
  /** Per CPU, its timer ticks (local_timer_entry), in time order. */
  private ticks = new Map<number, number[]>();
  /** IPIs to a busy CPU slow enough that a held tick could explain them. */
  private lateDeliveries: Delivery[] = [];

  /** The rows built so far (unsorted, times ns after the first event): the page's sketch. */
  get rowsSoFar(): Pick<RowColumns, 'length' | 'time' | 'cpu'> {
    return this.rows;
  }

  add(e: RawEvent): void {
    if (!KNOWN_EVENTS.has(e.name)) {
      this.unknown[e.name] = (this.unknown[e.name] ?? 0) + 1;
      return;
    }
    if (e.cpu > 4095) {
      this.problem(e, `CPU ${e.cpu} is beyond the 4096 CPUs the importer draws`);
      return;
    }
    this.base ??= [e.sec, e.nsec];
    const t = (e.sec - this.base[0]) * 1e9 + (e.nsec - this.base[1]);
    this.counts.events++;
    const s = this.cpuState(e.cpu);
    if (e.pid > 0) this.tasks[e.pid] = e.comm;
    if (s.task < 0 && e.pid > 0 && e.name !== 'sched_switch') {
      s.task = this.push(t, e.cpu, EventKind.TaskRun, e.pid, e.line);
    }
    if (e.flags) this.flags(e, t);
    switch (e.name) {
      case 'sched_switch':
        return this.schedSwitch(e, t, s);
      case 'tlb_flush':
        return this.tlbFlush(e, t, s);
      case 'ipi_send_cpu':
      case 'ipi_send_cpumask':
        return this.ipiSend(e, t, s);
      case 'csd_queue_cpu':
        return this.csdQueue(e, s);
      case 'csd_function_entry':
        return this.csdEntry(e, t, s);
      case 'csd_function_exit':
        return this.csdExit(e, t, s);
      case 'irq_disable':
      case 'preempt_disable':
        return this.sectionStart(e, t, s);
      case 'irq_enable':
      case 'preempt_enable':
        return this.sectionEnd(e, t, s);
      case 'local_timer_entry':
        return this.tick(e.cpu, t);
      case 'sys_enter':
        return this.sysEnter(e, t, s);
      case 'sys_exit':
        return this.sysExit(e, t, s);
      case 'ipi_entry':
      case 'ipi_exit':
        // arm64's ipi_entry/exit name their IPI; only function-call ones answer a shootdown.
        if (!/function call/i.test(e.body)) return;
        return e.name === 'ipi_entry' ? this.handlerEntry(e, t, s) : this.handlerExit(t, s);
      default:
        return e.name.endsWith('_entry') ? this.handlerEntry(e, t, s) : this.handlerExit(t, s);
    }
  }

  finish(): Built {
    let end = 0;
    for (let i = 0; i < this.rows.length; i++)
      end = Math.max(end, this.rows.time[i] + this.rows.dur[i]);
    this.state.forEach((s) => {
      if (s.task >= 0) this.close(s.task, end);
      if (s.handler >= 0) this.close(s.handler, end);
    });
    for (const x of this.sections) {
      const t = this.base ? (x.sec - this.base[0]) * 1e9 + (x.nsec - this.base[1]) : 0;
      this.cpuState(x.cpu);
      this.close(this.push(t, x.cpu, x.kind, 0, x.line), t + x.durNs);
      if (x.kind === EventKind.IrqsOff) this.counts.irqsBounded = true;
      else this.counts.preemptBounded = true;
    }
    // A file with a second recording joined on has ticks out of order.
    for (const t of this.ticks.values()) t.sort((a, b) => a - b);
    for (const h of heldInterrupts(this.ticks, this.lateDeliveries)) {
      this.cpuState(h.cpu);
      // arg 1: inferred from a held tick, not bounded by irq_disable/irq_enable events.
      this.close(this.push(h.start, h.cpu, EventKind.IrqsOff, 1, h.line), h.end);
      this.counts.irqsInferred++;
    }
    this.ticks.clear();
    this.lateDeliveries = [];
    for (const q of this.pending.values()) this.counts.unpairedSends += q.length;
    // The rows' times are shifted to start at their first; the flag instants by the same.
    let t0 = Infinity;
    for (let i = 0; i < this.rows.length; i++) t0 = Math.min(t0, this.rows.time[i]);
    if (!Number.isFinite(t0)) t0 = 0;
    const flagged: FlagInstants = {
      time: Float64Array.from(this.flagTimes, (t) => t - t0),
      cpu: Uint16Array.from(this.flagCpus),
      bits: Uint8Array.from(this.flagBits),
      line: Int32Array.from(this.flagLines),
      dropped: this.flagDropped,
    };
    this.flagTimes = [];
    this.flagCpus = [];
    this.flagBits = [];
    this.flagLines = [];
    const syscallPath = Float64Array.from(this.syscallPath);
    this.syscallPath = [];
    return {
      flagged,
      syscallPath,
      columns: this.sorted(),
      cpus: Math.max(1, this.maxCpu + 1),
      tasks: this.tasks,
      unknown: this.unknown,
      issues: this.issues,
      counts: this.counts,
      startSeconds: this.base ? this.base[0] + this.base[1] / 1e9 : 0,
    };
  }

  private cpuState(cpu: number): CpuState {
    if (cpu > this.maxCpu) this.maxCpu = cpu;
    return (this.state[cpu] ??= {
      task: -1,
      handler: -1,
      csd: [],
      shootdown: -1,
      collecting: false,
      irqs: null,
      preempt: null,
      sys: null,
    });
  }

  private push(t: number, cpu: number, kind: EventKind, arg: number, line: number, parent = -1) {
    return this.rows.push(t, cpu, kind, arg, line, parent);
  }

  private close(row: number, t: number) {
    this.rows.dur[row] = Math.max(0, t - this.rows.time[row]);
  }

  private problem(e: RawEvent, message: string) {
    this.issues.push({ line: e.line, message, excerpt: excerpt(`${e.name}: ${e.body}`) });
  }

  private schedSwitch(e: RawEvent, t: number, s: CpuState) {
    // tracefs prints next_comm=.. next_pid=..; trace-cmd's sched plugin `prev:pid [prio] S ==> next:pid [prio]`.
    const next =
      /next_comm=(.*?) next_pid=(\d+)/.exec(e.body) ?? /==>\s*(.+):(\d+)\s+\[/.exec(e.body);
    if (!next) return this.problem(e, 'sched_switch without next_comm/next_pid');
    if (s.task >= 0) this.close(s.task, t);
    const pid = Number(next[2]);
    if (pid > 0) this.tasks[pid] = next[1];
    s.task = pid > 0 ? this.push(t, e.cpu, EventKind.TaskRun, pid, e.line) : -1;
    s.collecting = false;
  }

  private tlbFlush(e: RawEvent, t: number, s: CpuState) {
    const f = parseTlbFlush(e.body);
    if (typeof f === 'string') return this.problem(e, f);
    this.counts.tlbFlush++;
    let row: number;
    if (f.reason === REASON_SEND_IPI) {
      row = this.push(t, e.cpu, EventKind.FlushRange, f.pages, e.line);
      s.shootdown = row;
      s.collecting = true;
      s.sys?.flushes.push(row);
    } else if (f.reason === REASON_SWITCH) {
      row = this.push(t, e.cpu, EventKind.SwitchMm, 1, e.line);
      s.collecting = false;
    } else {
      const top = s.csd[s.csd.length - 1];
      const inFunc = top && top.func === 'flush_tlb_func' && top.row >= 0;
      row =
        inFunc && this.rows.reason[top.row] < 0
          ? top.row
          : this.push(t, e.cpu, EventKind.FlushTlbFunc, 0, e.line);
      // flush_tlb_func's outcome in the model's terms: 3 = not loaded here, 2 full, 1 partial.
      const outcome =
        f.reason === REASON_WRONG_CPU ? 3 : f.pages < 0 || f.pages > 33 ? 2 : f.pages === 0 ? 0 : 1;
      this.rows.arg[row] = outcome;
      this.rows.line[row] = e.line;
      this.targetFlushed(e.cpu, t);
    }
    this.rows.reason[row] = f.reason;
    this.rows.pages[row] = f.pages;
  }

  private ipiSend(e: RawEvent, t: number, s: CpuState) {
    const targets = e.name === 'ipi_send_cpu' ? [intField(e.body, 'cpu')] : cpumaskOf(e.body);
    if (!targets || targets.some((c) => c === null || c > 4095)) {
      return this.problem(e, `${e.name} without a readable target (cpu= or cpumask=)`);
    }
    const callFunction = isCallFunctionIpi(e.body);
    for (const c of targets as number[]) {
      this.cpuState(c);
      // A shootdown's sends are its rows, as the model's are (flushBreakdown.ts reads them so).
      const row = this.push(
        t,
        e.cpu,
        EventKind.IpiSent,
        c,
        e.line,
        s.collecting ? s.shootdown : -1,
      );
      this.counts.ipiSends++;
      if (s.collecting) {
        this.counts.shootdownSends++;
        this.sentFor.set(c, s.shootdown);
      }
      if (!callFunction) continue;
      this.counts.callFunctionSends++;
      const q = this.pending.get(c) ?? [];
      q.push({ row, t });
      this.pending.set(c, q);
    }
  }

  private csdQueue(e: RawEvent, s: CpuState) {
    const csd = csdOf(e.body);
    if (funcOf(e.body) === 'flush_tlb_func') this.counts.flushRequests++;
    if (csd) this.csds.set(csd, { sender: e.cpu, shootdown: s.collecting ? s.shootdown : -1 });
  }

  private csdEntry(e: RawEvent, t: number, s: CpuState) {
    const func = funcOf(e.body);
    const csd = csdOf(e.body);
    // Without a csd it is the initiator's own flush, after its sends: a row of its shootdown.
    // With one, it runs in the call-function handler that took the IPI, as in a model run.
    const cause = !csd ? (s.collecting ? s.shootdown : -1) : s.handler;
    const row =
      func === 'flush_tlb_func'
        ? this.push(t, e.cpu, EventKind.FlushTlbFunc, 0, e.line, cause)
        : -1;
    s.csd.push({ func, csd, t, row });
    // The initiator's own flush_tlb_func runs after its sends: the shootdown's sends are all out.
    if (!csd) s.collecting = false;
  }

  private csdExit(e: RawEvent, t: number, s: CpuState) {
    const func = funcOf(e.body);
    const csd = csdOf(e.body);
    let i = s.csd.length - 1;
    while (i >= 0 && (s.csd[i].func !== func || s.csd[i].csd !== csd)) i--;
    if (i < 0) return; // entered before the recording began
    // The innermost frame is the usual one: pop() it, without splice's array of one.
    const frame = i === s.csd.length - 1 ? (s.csd.pop() as CsdFrame) : s.csd.splice(i, 1)[0];
    if (frame.row >= 0) this.close(frame.row, t);
    if (!csd) {
      if (s.shootdown >= 0 && func === 'flush_tlb_func') this.csdEnd(s.shootdown, t);
      return;
    }
    const queued = this.csds.get(csd);
    if (!queued || func !== 'flush_tlb_func') return;
    this.csds.delete(csd);
    // flush_tlb_multi waits for its flushes: the csd is unlocked after the function returns.
    const cause = s.handler >= 0 ? s.handler : frame.row;
    this.push(t, e.cpu, EventKind.CsdUnlocked, queued.sender, e.line, cause);
    if (queued.shootdown >= 0) this.csdEnd(queued.shootdown, t);
  }

  private csdEnd(shootdown: number, t: number) {
    if (!this.csdShootdowns.has(shootdown)) {
      this.csdShootdowns.add(shootdown);
      this.counts.csdEnded++;
      if (this.rows.dur[shootdown] > 0) this.counts.targetEnded--;
    }
    this.extend(shootdown, t);
  }

  /**
   * Without csd events a shootdown's end is its last target's tlb_flush (the flush the IPI
   * asked for): a lower bound of the ack, which the summary labels as such.
   */
  private targetFlushed(cpu: number, t: number) {
    const sd = this.sentFor.get(cpu);
    if (sd === undefined) return;
    this.sentFor.delete(cpu);
    if (this.csdShootdowns.has(sd)) return;
    if (this.rows.dur[sd] === 0 && t > this.rows.time[sd]) this.counts.targetEnded++;
    this.extend(sd, t);
  }

  private extend(row: number, t: number) {
    if (t - this.rows.time[row] > this.rows.dur[row]) this.close(row, t);
  }

  private handlerEntry(e: RawEvent, t: number, s: CpuState) {
    this.counts.hasHandlers = true;
    const q = this.pending.get(e.cpu) ?? [];
    while (q.length && t - q[0].t > PAIR_WINDOW_NS) {
      q.shift();
      this.counts.unpairedSends++;
    }
    // The newest send not after the entry is the one this handler answers: the kernel sends a
    // call-function IPI only to a CPU whose queue was empty, so older pending sends were
    // answered by handlers the recording does not have (e.g. before their tracepoint was on).
    let k = q.length - 1;
    while (k >= 0 && q[k].t > t) k--;
    const send = k >= 0 ? q[k] : undefined;
    if (send) {
      this.counts.pairedSends++;
      this.counts.unpairedSends += k;
      q.splice(0, k + 1);
    }
    const sender = send ? this.rows.cpu[send.row] : -1;
    s.handler = this.push(t, e.cpu, EventKind.IpiHandler, sender, e.line, send ? send.row : -1);
    // Only a busy CPU: an idle one restarts its stopped tick on the way out of idle.
    if (send && s.task >= 0 && t - send.t >= MIN_LATE_NS)
      this.lateDeliveries.push({ cpu: e.cpu, send: send.t, entry: t, line: e.line });
  }

  private sysEnter(e: RawEvent, t: number, s: CpuState) {
    const m = /^NR (\d+)/.exec(e.body);
    if (!m) return this.problem(e, 'sys_enter without its NR');
    s.sys = { nr: Number(m[1]), t, flushes: [] };
  }

  /**
   * A syscall that began one shootdown and returned without error: its time less the
   * shootdown's is its own path (entry, exit, locks, the zap and the pages' freeing).
   */
  private sysExit(e: RawEvent, t: number, s: CpuState) {
    const m = /^NR (\d+) = (-?)/.exec(e.body);
    if (!m) return this.problem(e, 'sys_exit without its NR and result');
    const sys = s.sys;
    s.sys = null;
    if (!sys || sys.nr !== Number(m[1]) || m[2] === '-' || sys.flushes.length !== 1) return;
    const flush = this.rows.dur[sys.flushes[0]];
    if (flush > 0) this.syscallPath.push(t - sys.t - flush);
  }

  private tick(cpu: number, t: number) {
    const a = this.ticks.get(cpu);
    if (a) a.push(t);
    else this.ticks.set(cpu, [t]);
  }

  private handlerExit(t: number, s: CpuState) {
    if (s.handler < 0) return;
    this.close(s.handler, t);
    s.handler = -1;
  }

  /**
   * One event's flags say only that interrupts (or preemption) were off as it fired: joining
   * flagged events into a span claimed 1.44 ms of irqs off across separate handlers ~15 µs
   * apart. So they are counted, and spans come from disable/enable events alone. Each is kept
   * as an instant beside the rows (not as a row: a row per flagged event doubled a recording's
   * rows, and took a small one past the timeline's SVG limit), drawn as a small mark.
   */
  private flags(e: RawEvent, t: number) {
    const f = e.flags as string;
    this.counts.hasFlags = true;
    let bits = 0;
    if (f[0] === 'd' || f[0] === 'D') {
      this.counts.irqsFlagged++;
      bits |= FLAG_IRQS_OFF;
    }
    if (f[3] !== undefined && f[3] !== '.' && f[3] !== '0') {
      this.counts.preemptFlagged++;
      bits |= FLAG_PREEMPT_OFF;
    }
    if (!bits) return;
    if (this.flagTimes.length >= FLAG_INSTANTS_KEPT) {
      this.flagDropped++;
      return;
    }
    this.flagTimes.push(t);
    this.flagCpus.push(e.cpu);
    this.flagBits.push(bits);
    this.flagLines.push(e.line);
  }

  private sectionStart(e: RawEvent, t: number, s: CpuState) {
    const which = e.name === 'irq_disable' ? 'irqs' : 'preempt';
    this.counts[which === 'irqs' ? 'irqsBounded' : 'preemptBounded'] = true;
    // A second disable without an enable between: the section began at the first one.
    s[which] ??= t;
  }

  private sectionEnd(e: RawEvent, t: number, s: CpuState) {
    const which = e.name === 'irq_enable' ? 'irqs' : 'preempt';
    this.counts[which === 'irqs' ? 'irqsBounded' : 'preemptBounded'] = true;
    const start = s[which];
    // An enable whose disable came before the recording began bounds nothing we can measure.
    if (start === null) return;
    s[which] = null;
    const kind = which === 'irqs' ? EventKind.IrqsOff : EventKind.PreemptOff;
    this.close(this.push(start, e.cpu, kind, 0, e.line), t);
  }

  /**
   * A latency tracer's (irqsoff, preemptoff, preemptirqsoff) recorded section: `durNs` long from
   * the given timestamp on `cpu`, as the tracer's own header states it.
   */
  section(x: {
    kind: EventKind;
    cpu: number;
    sec: number;
    nsec: number;
    durNs: number;
    line: number;
  }) {
    this.sections.push(x);
  }

  /** Rows in time order (stable), parents remapped, times shifted to start at 0. */
  private sorted(): RecordingColumns {
    const own = this.rows.drainInTimeOrder();
    const n = own.time.length;
    return {
      ...own,
      mm: new Uint16Array(n),
      asid: new Uint16Array(n),
      gen: new Uint32Array(n),
      addr: new Float64Array(n),
    };
  }
}
