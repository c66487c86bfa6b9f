// A recording too large for the page, as its worker keeps it: the trace columns and the
// recording's own (reason, pages, source line) packed (model/packedColumns.ts), and the window
// index the simulator's worker builds for its runs, so the page's remote timeline, inspector
// and notes ask it the same questions. No worker globals: worker.ts wires it, tests call it.
import { packColumn, packColumns, packedBytes, readPacked } from '../model/packedColumns';
import { sliceOf, WindowServer } from '../workers/windowServer';
import type { SliceColumns } from '../workers/protocol';
import type { Columns } from '../trace/trace';
import type { RecordingColumns } from './build';
import { busiestSender } from './focus';
import type { RecordedFields } from './protocol';

/** The run number a kept recording answers to (its worker keeps one recording only). */
export const KEPT_RUN = 1;

export class KeptRecording {
  readonly server: WindowServer;
  private readonly extras: {
    reason: ReturnType<typeof packColumn>;
    pages: ReturnType<typeof packColumn>;
    line: ReturnType<typeof packColumn>;
  };
  /** Bytes of every packed column, the trace's and the recording's own. */
  readonly columnBytes: number;
  /** The CPU that sent the most IPIs (-1 if none): the lane labels' initiator. */
  readonly initiator: number;

  /** Packs `cols` (they may be dropped afterwards) and builds the window index over them. */
  constructor(cols: RecordingColumns, cpus: number) {
    const { reason, pages, line, ...trace } = cols;
    this.initiator = busiestSender(trace);
    const packed = packColumns(trace);
    this.extras = { reason: packColumn(reason), pages: packColumn(pages), line: packColumn(line) };
    this.columnBytes =
      packed.bytes +
      packedBytes(this.extras.reason) +
      packedBytes(this.extras.pages) +
      packedBytes(this.extras.line);
    this.server = new WindowServer(
      KEPT_RUN,
      packed.source,
      cpus,
      undefined,
      () => this.columnBytes,
    );
  }

  get rows(): number {
    return this.server.rows;
  }

  get end(): number {
    return this.server.end;
  }

  /** Rows lo … hi − 1: the trace's columns and the recording's own (for a whole export). */
  slice(lo: number, hi: number): { columns: Columns; extras: SliceColumns } {
    const own = <T extends SliceColumns[keyof SliceColumns]>(c: ReturnType<typeof packColumn>): T =>
      readPacked(c, lo, hi).slice() as T;
    return {
      columns: sliceOf(this.server.src, lo, hi),
      extras: {
        reason: own<Int8Array>(this.extras.reason),
        pages: own<Float64Array>(this.extras.pages),
        line: own<Int32Array>(this.extras.line),
      },
    };
  }

  /** What only a recording knows of `row`, or the problem with the question. */
  recorded(row: number): RecordedFields | string {
    if (!(Number.isInteger(row) && row >= 0 && row < this.rows))
      return `row ${row} is not in this recording of ${this.rows}`;
    const one = (c: ReturnType<typeof packColumn>) => readPacked(c, row, row + 1)[0];
    const src = this.server.src;
    return {
      row,
      line: one(this.extras.line),
      reason: one(this.extras.reason),
      pages: one(this.extras.pages),
      kind: src.read('kind', row, row + 1)[0],
      arg: src.read('arg', row, row + 1)[0],
    };
  }
}
