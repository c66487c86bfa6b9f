// The rows of chosen flushes (the A/B log's "flushes that differ" filter): a flush's
// FlushRange row and every row its parent links lead back to it, as flushMatch.ts flushesOf
// assigns a row its flush. The page reads that from flushOf; a run kept in its worker has no
// per-row flushOf (it would cost 4 B a row), so the worker runs this scan once per set of
// flushes, a slice at a time, and keeps only the member rows.
import { EventKind, type Columns } from '../trace/trace';
import type { FlushFacts, FlushMatch } from './flushMatch';
import { lowerBound } from './intervals';

/** Rows of the flushes `flushes` (their FlushRange rows), fed in trace order a slice at a time. */
export class FlushRowsScan {
  /** One bit a row: the row belongs to one of the flushes (parents precede their children). */
  private readonly member: Uint8Array;
  private readonly out: number[] = [];
  private readonly flushes: ReadonlySet<number>;

  constructor(
    private readonly rows: number,
    flushes: Iterable<number>,
  ) {
    this.member = new Uint8Array((rows + 7) >> 3);
    this.flushes = new Set(flushes);
  }

  private has(r: number): boolean {
    return (this.member[r >> 3] & (1 << (r & 7))) !== 0;
  }

  feed(c: Pick<Columns, 'kind' | 'parent'>, base: number): void {
    const { kind, parent } = c;
    const FLUSH = EventKind.FlushRange;
    for (let j = 0; j < kind.length; j++) {
      const i = base + j;
      if (i >= this.rows) return;
      const p = parent[j];
      // As flushesOf: a FlushRange row is its own flush; any other row is its parent's (a
      // link forward is ignored).
      const inside = kind[j] === FLUSH ? this.flushes.has(i) : p >= 0 && p < i && this.has(p);
      if (!inside) continue;
      this.member[i >> 3] |= 1 << (i & 7);
      this.out.push(i);
    }
  }

  /** The member rows, in trace order. */
  result(): Int32Array {
    return Int32Array.from(this.out);
  }
}

/**
 * Row `row`'s flush (its FlushRange row, or -1), as flushesOf assigns it, reading a row's kind
 * and parent one at a time: what a run kept in its worker answers for one selected row (the
 * A/B outline of the matched flush) without a per-row flushOf.
 */
export function flushOfRow(
  row: number,
  kindAt: (r: number) => number,
  parentAt: (r: number) => number,
): number {
  let r = row;
  // Parents lie strictly before their rows, so the walk ends.
  for (;;) {
    if (kindAt(r) === EventKind.FlushRange) return r;
    const p = parentAt(r);
    if (!(p >= 0 && p < r)) return -1;
    r = p;
  }
}

/**
 * The members among rows [a, b) (the rows starting in a window: rowSource.ts logRange), from
 * the `offset`-th on, at most `limit`, and how many there are in all.
 */
export function membersIn(
  members: Int32Array,
  a: number,
  b: number,
  offset: number,
  limit: number,
): { rows: Int32Array; total: number } {
  const lo = lowerBound(members, a);
  const hi = lowerBound(members, b);
  const total = Math.max(0, hi - lo);
  const from = lo + Math.min(total, Math.max(0, Math.floor(offset)));
  const to = Math.min(hi, from + Math.max(0, Math.floor(limit)));
  return { rows: members.slice(from, to), total };
}

/** Each side's flushes whose pair differs (flushMatch.ts differingRows, with their facts). */
export function differingFacts(m: FlushMatch): { a: FlushFacts[]; b: FlushFacts[] } {
  const a: FlushFacts[] = [];
  const b: FlushFacts[] = [];
  for (const p of m.pairs) {
    if (!p.diffs.length) continue;
    if (p.a) a.push(p.a);
    if (p.b) b.push(p.b);
  }
  return { a, b };
}
