// The worker's answers to stepping questions (protocol.ts StepRequest) about a run it keeps:
// the page's own stepping (model/stepping.ts) run on the store a probe at a time, and the A/B
// log's "flushes that differ" rows (model/flushRows.ts), found in one pass per set of flushes
// and kept until the set changes.
import { FlushRowsScan, flushOfRow, membersIn } from '../model/flushRows';
import { forEachSlice, readRows, type RowSource } from '../model/rowSource';
import { sourceTimeRows, walkRows } from '../model/stepping';
import { logRange } from '../model/windowTrace';
import type { StepRequest } from './protocol';
import type { Reply } from './windowServer';

/** Most steps one question takes (keys pressed while the last answer was on its way). */
export const MAX_STEPS = 10_000;
/** Most rows of one page of the "flushes that differ" log. */
const MAX_DIFF_LOG = 1000;

/** Why `row` is not a row of a run of `rows` rows (a question's error), or null when it is. */
export function rowProblem(row: number, rows: number): string | null {
  return Number.isInteger(row) && row >= 0 && row < rows
    ? null
    : `row ${row} is not in this run of ${rows}`;
}

export class StepServer {
  /** The member rows of the last set of flushes asked about, and that set. */
  private members: { flushes: Int32Array; rows: Int32Array } | null = null;

  constructor(private readonly src: RowSource) {}

  /** Bytes kept for the log's filter (one row number a member row). */
  get bytes(): number {
    return this.members ? this.members.rows.byteLength + this.members.flushes.byteLength : 0;
  }

  answer(req: StepRequest, reply: Reply): void {
    const rows = this.src.rows;
    if (req.type === 'step') {
      const { row, t, dir, count } = req;
      const problem = row === null ? null : rowProblem(row, rows);
      if (problem) {
        reply({ type: 'query-error', id: req.id, message: problem });
        return;
      }
      if (dir !== 1 && dir !== -1) {
        reply({ type: 'query-error', id: req.id, message: `step direction ${dir} is not 1 or -1` });
        return;
      }
      const n = Math.max(0, Math.min(MAX_STEPS, Math.floor(count) || 0));
      const times = sourceTimeRows(this.src);
      const durOf = (r: number) => (r >= 0 ? this.src.read('dur', r, r + 1)[0] : NaN);
      if (n === 0) {
        const r = row ?? -1;
        reply({
          type: 'step',
          id: req.id,
          row: r,
          time: r >= 0 ? times.timeAt(r) : NaN,
          dur: durOf(r),
        });
        return;
      }
      const at = Number.isNaN(t) ? (dir > 0 ? -1 : Infinity) : t;
      const to = walkRows(times, row, at, dir, n);
      reply({ type: 'step', id: req.id, row: to.row, time: to.time, dur: durOf(to.row) });
      return;
    }
    if (req.type === 'flushof') {
      const { row } = req;
      const problem = rowProblem(row, rows);
      if (problem) {
        reply({ type: 'query-error', id: req.id, message: problem });
        return;
      }
      const at = (c: 'kind' | 'parent') => (r: number) => this.src.read(c, r, r + 1)[0];
      reply({ type: 'flushof', id: req.id, row, flush: flushOfRow(row, at('kind'), at('parent')) });
      return;
    }
    const { t0, t1 } = req;
    if (!Number.isFinite(t0) || !Number.isFinite(t1) || t1 < t0) {
      reply({ type: 'query-error', id: req.id, message: `window ${t0}..${t1} is not a window` });
      return;
    }
    const members = this.membersOf(req.flushes);
    const { first, total: inWindow } = logRange(this.src, t0, t1, 0, 0);
    const limit = Math.max(0, Math.min(MAX_DIFF_LOG, Math.floor(req.limit) || 0));
    const page = membersIn(members, first, first + inWindow, req.offset, limit);
    const columns = readRows(this.src, page.rows);
    reply({ type: 'difflog', id: req.id, rows: page.rows, total: page.total, columns }, [
      page.rows.buffer,
      ...Object.values(columns).map((c: Float64Array) => c.buffer),
    ]);
  }

  private membersOf(flushes: Int32Array): Int32Array {
    const m = this.members;
    if (m && m.flushes.length === flushes.length && m.flushes.every((f, i) => f === flushes[i]))
      return m.rows;
    const scan = new FlushRowsScan(this.src.rows, flushes);
    forEachSlice(this.src, ['kind', 'parent'], (c, lo) => scan.feed(c, lo));
    const rows = scan.result();
    this.members = { flushes: Int32Array.from(flushes), rows };
    return rows;
  }
}
