// `trace-cmd report` text. Lines look like tracefs ones without the flags column (unless
// `report -l`), may carry the buffer instance's name first, and start with `cpus=N`:
//   tlbscope-24281:   bash-24281 [001]  1443.114689: tlb_flush:   pages=-1 reason=flush on task switch (0)
import { notAnEvent } from './tracefs';
import { stamped, type LineResult } from './types';

// The instance name's gap and the command share no run of blanks (`:\s+\s*(.+)` tried every
// split of it, cubic in its length: 50 s for a 4,096-character line): the command is trimmed.
const LINE =
  /^(?:(\S+):\s)?(.+)-(\d+)\s+\[(\d+)\]\s+(?:([^\s[\]]{4,6})\s+)?(\d+\.\d+):\s+([\w.-]+):\s*(.*)$/;

export function parseTraceCmdLine(text: string, line: number): LineResult {
  if (/^\s*$/.test(text) || /^cpus=\d+\s*$/.test(text) || text.startsWith('#')) return 'skip';
  if (/^\s*version\s*=/.test(text) || /^CPU \d+ is empty/.test(text)) return 'skip';
  const m = LINE.exec(text);
  if (!m) return { problem: notAnEvent(text) };
  return stamped(m[6], {
    line,
    sec: 0,
    nsec: 0,
    comm: m[2].trim(),
    pid: Number(m[3]),
    cpu: Number(m[4]),
    flags: m[5] ?? null,
    name: m[7],
    body: m[8].trim(),
  });
}
