// The builder's rows while a recording is read, in typed columns of the width the trace keeps
// (44 B a row). Plain arrays of numbers took 8 B a value plus their growth slack on the JS
// heap, and a 3-million-line recording's worker peaked near 700 MB before the rows were even
// sorted; typed columns grow by doubling, and the pages of capacity not yet written are not
// touched, so the resident cost is about what is filled.

const KINDS = {
  time: Float64Array,
  dur: Float64Array,
  cpu: Uint16Array,
  kind: Uint8Array,
  arg: Float64Array,
  parent: Int32Array,
  reason: Int8Array,
  pages: Float64Array,
  line: Int32Array,
} as const;

type Name = keyof typeof KINDS;
type Column<N extends Name> = InstanceType<(typeof KINDS)[N]>;

const FIRST_CAPACITY = 4096;

export class RowColumns {
  /** Rows pushed so far. */
  length = 0;
  time = new Float64Array(FIRST_CAPACITY);
  dur = new Float64Array(FIRST_CAPACITY);
  cpu = new Uint16Array(FIRST_CAPACITY);
  kind = new Uint8Array(FIRST_CAPACITY);
  arg = new Float64Array(FIRST_CAPACITY);
  parent = new Int32Array(FIRST_CAPACITY);
  reason = new Int8Array(FIRST_CAPACITY);
  pages = new Float64Array(FIRST_CAPACITY);
  line = new Int32Array(FIRST_CAPACITY);

  /** Appends a row with no duration, reason or page count; returns its index. */
  push(t: number, cpu: number, kind: number, arg: number, line: number, parent: number): number {
    if (this.length === this.time.length) this.grow();
    const i = this.length++;
    this.time[i] = t;
    this.cpu[i] = cpu;
    this.kind[i] = kind;
    this.arg[i] = arg;
    this.parent[i] = parent;
    this.reason[i] = -1;
    this.pages[i] = NaN;
    this.line[i] = line;
    return i;
  }

  /**
   * Every column in time order (stable), parents remapped to the new rows and times shifted to
   * start at 0; the builder is left empty.
   */
  drainInTimeOrder(): { [N in Name]: Column<N> } {
    const n = this.length;
    const time = this.time;
    const order = new Uint32Array(n);
    let inOrder = true;
    for (let i = 0; i < n; i++) {
      order[i] = i;
      if (i > 0 && time[i] < time[i - 1]) inOrder = false;
    }
    if (!inOrder) order.sort((a, b) => time[a] - time[b] || a - b);
    const t0 = n ? time[order[0]] : 0;
    // One loop per element type: a single generic loop over all nine columns made its element
    // accesses megamorphic, and copying out took longer than sorting.
    const floats = (from: Float64Array, shift: number) => {
      const to = new Float64Array(n);
      for (let i = 0; i < n; i++) to[i] = from[order[i]] - shift;
      return to;
    };
    const ints = <T extends Uint16Array | Uint8Array | Int8Array | Int32Array>(from: T): T => {
      if (inOrder) return from.slice(0, n) as T;
      const to = new (from.constructor as new (n: number) => T)(n);
      for (let i = 0; i < n; i++) to[i] = from[order[i]];
      return to;
    };
    // Each column is let go as its sorted copy is made, so the rows are held about once, not
    // twice, at any moment.
    const give = <N extends Name>(name: N): Column<N> => {
      const c = this[name] as Column<N>;
      this.set(name, new KINDS[name](0) as Column<N>);
      return c;
    };
    const out = {} as { [N in Name]: Column<N> };
    out.time = floats(give('time'), t0);
    out.dur = floats(give('dur'), 0);
    out.arg = floats(give('arg'), 0);
    out.pages = floats(give('pages'), 0);
    out.cpu = ints(give('cpu'));
    out.kind = ints(give('kind'));
    out.reason = ints(give('reason'));
    out.line = ints(give('line'));
    if (inOrder) out.parent = give('parent').slice(0, n);
    else {
      const rank = new Int32Array(n);
      for (let i = 0; i < n; i++) rank[order[i]] = i;
      const from = give('parent');
      out.parent = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const p = from[order[i]];
        out.parent[i] = p >= 0 ? rank[p] : -1;
      }
    }
    this.length = 0;
    return out;
  }

  private grow() {
    const capacity = this.time.length * 2;
    for (const name of Object.keys(KINDS) as Name[]) {
      const next = new KINDS[name](capacity);
      next.set(this[name] as never);
      this.set(name, next);
    }
  }

  private set<N extends Name>(name: N, column: Column<N>) {
    (this as unknown as Record<Name, Column<Name>>)[name] = column;
  }
}
