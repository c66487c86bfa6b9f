// `perf script` text of tracepoint samples (`perf record -e tlb:tlb_flush ...`):
//   madvise_touch 24387 [000]  1444.218920987:   csd:csd_queue_cpu: cpu=1 callsite=... csd=0x...
// The command may contain spaces; `pid/tid` appears with `-F tid,pid`; a period may precede
// the event when perf prints one.
import { notAnEvent } from './tracefs';
import { stamped, type LineResult } from './types';

// The columns are found from the pid, `[cpu]` and timestamp after the command, not by one
// pattern over the whole line: `^\s*(.+?)\s+(-?\d+)…` let the engine try every way of sharing
// a run of blanks among the leading space, the command and the gap before the pid, which is
// cubic in the run's length (a 4,096-character line of blanks took 30 s). Here each blank
// starts at most one attempt, and an attempt ends at the first character that does not fit.
const COLUMNS = /\s(-?\d+)(?:\/(-?\d+))?\s+\[(\d+)\]\s+(\d+\.\d+):\s+/g;
const EVENT = /(?:\d+\s+)?([\w-]+):([\w.-]+):\s*/y;

export function parsePerfLine(text: string, line: number): LineResult {
  if (/^\s*$/.test(text) || text.startsWith('#')) return 'skip';
  // The command is at least one character: the columns start after it. The first place they
  // are followed by `sys:event:` is the one read, as the command may hold a `[cpu]` itself.
  COLUMNS.lastIndex = 1;
  for (let m = COLUMNS.exec(text); m; m = COLUMNS.exec(text)) {
    EVENT.lastIndex = COLUMNS.lastIndex;
    const e = EVENT.exec(text);
    if (e)
      return stamped(m[4], {
        line,
        sec: 0,
        nsec: 0,
        comm: text.slice(0, m.index).trim(),
        // perf prints `:-1 -1` for samples it could not attribute to a task.
        pid: Math.max(0, Number(m[2] ?? m[1])),
        cpu: Number(m[3]),
        flags: null,
        name: e[2],
        body: text.slice(EVENT.lastIndex).trim(),
      });
    COLUMNS.lastIndex = m.index + 1;
  }
  return { problem: notAnEvent(text) };
}
