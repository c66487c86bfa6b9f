// `perf script` text of tracepoint samples (`perf record -e tlb:tlb_flush ...`):
//   madvise_touch 24387 [000]  1444.218920987:   csd:csd_queue_cpu: cpu=1 callsite=... csd=0x...
// The command may contain spaces; `pid/tid` appears with `-F tid,pid`; a period may precede
// the event when perf prints one.
import { notAnEvent } from './tracefs';
import { stamped, type LineResult } from './types';

const LINE =
  /^\s*(.+?)\s+(-?\d+)(?:\/(-?\d+))?\s+\[(\d+)\]\s+(\d+\.\d+):\s+(?:\d+\s+)?([\w-]+):([\w.-]+):\s*(.*)$/;

export function parsePerfLine(text: string, line: number): LineResult {
  if (/^\s*$/.test(text) || text.startsWith('#')) return 'skip';
  const m = LINE.exec(text);
  if (!m) return { problem: notAnEvent(text) };
  return stamped(m[5], {
    line,
    sec: 0,
    nsec: 0,
    comm: m[1].trim(),
    // perf prints `:-1 -1` for samples it could not attribute to a task.
    pid: Math.max(0, Number(m[3] ?? m[2])),
    cpu: Number(m[4]),
    flags: null,
    name: m[7],
    body: m[8].trim(),
  });
}
