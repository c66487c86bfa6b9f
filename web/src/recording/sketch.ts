// What the page draws of a recording while it is still being read: the rows built so far,
// counted per CPU in time bins. Reading a 10 M-line file takes seconds; a page that shows only a
// progress bar until the end says nothing of what is coming, and a growing picture of the
// shootdowns says the reader is working and where the activity is. The bins' span doubles as the
// recording grows (neighbouring bins merge), so the counts stay a fixed size however long it is.

/** Time bins across the sketch. */
export const SKETCH_BINS = 240;
/** The span the bins start with: a recording's first millisecond. */
const FIRST_SPAN_NS = 1e6;
/** CPUs counted apart; rows of higher CPUs are counted in the last lane. */
export const SKETCH_CPUS = 256;

/** Rows read so far, per CPU and time bin (cpu-major: counts[cpu * bins + bin]). */
export interface ImportSketch {
  rows: number;
  cpus: number;
  bins: number;
  /** ns the bins cover from the first event; bin i is [i, i + 1) × spanNs / bins. */
  spanNs: number;
  counts: Uint32Array;
}

export class SketchCounter {
  private counts = new Uint32Array(0);
  private cpus = 0;
  private span = FIRST_SPAN_NS;
  private rows = 0;

  /** Counts rows `from` … `to` − 1 (ns after the first event, and their CPUs). */
  add(time: Float64Array, cpu: Uint16Array, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      // The parser's timestamps are exact doubles; a time past them must not widen forever.
      const t = time[i] > 0 && time[i] < Number.MAX_VALUE ? time[i] : 0;
      while (t >= this.span) this.widen();
      const c = Math.min(cpu[i], SKETCH_CPUS - 1);
      if (c >= this.cpus) this.lanes(c + 1);
      const bin = Math.min(SKETCH_BINS - 1, Math.floor((t / this.span) * SKETCH_BINS));
      this.counts[c * SKETCH_BINS + bin]++;
    }
    this.rows += to - from;
  }

  /** A copy the counter no longer touches (it is posted to the page). */
  snapshot(): ImportSketch {
    return {
      rows: this.rows,
      cpus: this.cpus,
      bins: SKETCH_BINS,
      spanNs: this.span,
      counts: this.counts.slice(),
    };
  }

  private widen() {
    const half = SKETCH_BINS / 2;
    for (let c = 0; c < this.cpus; c++) {
      const lane = this.counts.subarray(c * SKETCH_BINS, (c + 1) * SKETCH_BINS);
      for (let b = 0; b < half; b++) lane[b] = lane[2 * b] + lane[2 * b + 1];
      lane.fill(0, half);
    }
    this.span *= 2;
  }

  private lanes(cpus: number) {
    const next = new Uint32Array(cpus * SKETCH_BINS);
    next.set(this.counts);
    this.counts = next;
    this.cpus = cpus;
  }
}
