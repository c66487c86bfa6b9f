// Window questions to the worker that kept a recording (worker.ts): the same TraceWindow the
// simulator's session gives a remote run (workers/session.ts), so RemoteTimeline, the
// inspector and the notes draw a recording as they draw a run, plus `recorded` for what only a
// recording knows of a row. Latest wins per kind of question, as in SimSession.
import type { QueryMessage, QueryRequest } from '../workers/protocol';
import { windowOver, type TraceWindow } from '../workers/session';
import { AnalysisJobs } from '../workers/analysisJobs';
import { KEPT_RUN } from './kept';
import type { RecordedFields, RecordingMessage, RecordingQuery } from './protocol';

type Answer = QueryMessage | Extract<RecordingMessage, { type: 'recorded' }>;

interface Waiting {
  type: RecordingQuery['type'];
  resolve: (m: Answer | null) => void;
  reject: (e: Error) => void;
}

export class RecordingWindow implements TraceWindow {
  private nextId = 1;
  private readonly pending = new Map<number, Waiting>();
  private readonly latest = new Map<RecordingQuery['type'], number>();
  private gone: string | null = null;

  constructor(private readonly worker: Worker) {
    worker.onmessage = (e: MessageEvent<RecordingMessage>) => this.receive(e.data);
    worker.onerror = (e) =>
      this.end(`the recording's worker failed: ${e.message || 'unknown error'}`);
  }

  private readonly analyses = new AnalysisJobs();

  // The questions a remote run's views ask, mapped as for a simulator's run.
  private readonly w = windowOver(
    (req) => this.ask(req) as Promise<QueryMessage | null>,
    KEPT_RUN,
    (run, ask, onProgress) => {
      if (this.gone) return { done: Promise.reject(new Error(this.gone)), cancel: () => {} };
      return this.analyses.start(
        (m) => this.worker.postMessage(m),
        this.nextId++,
        run,
        ask,
        onProgress,
      );
    },
  );
  readonly analyze = this.w.analyze;
  readonly lanes = this.w.lanes;
  readonly rows = this.w.rows;
  readonly memory = this.w.memory;
  readonly chain = this.w.chain;
  readonly log = this.w.log;
  readonly lens = this.w.lens;
  readonly arrows = this.w.arrows;
  readonly flushes = this.w.flushes;
  readonly exportRows = this.w.exportRows;
  readonly slice = this.w.slice;
  readonly pick = this.w.pick;
  readonly lensExtents = this.w.lensExtents;
  readonly facts = this.w.facts;
  readonly generations = this.w.generations;
  readonly step = this.w.step;
  readonly diffLog = this.w.diffLog;
  readonly flushOf = this.w.flushOf;

  /** Row `row`'s source line, flush reason and pages (null when overtaken by a newer ask). */
  recorded(row: number): Promise<RecordedFields | null> {
    return this.ask({ type: 'recorded', id: 0, run: KEPT_RUN, row }).then((m) =>
      m?.type === 'recorded' ? m : null,
    );
  }

  /** Ends the worker; questions waiting and later ones reject. */
  dispose(): void {
    this.worker.terminate();
    this.end('that recording is gone (another was imported)');
  }

  private ask(req: RecordingQuery): Promise<Answer | null> {
    if (this.gone) return Promise.reject(new Error(this.gone));
    const id = this.nextId++;
    this.latest.set(req.type, id);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { type: req.type, resolve, reject });
      this.worker.postMessage({ ...req, id } satisfies QueryRequest | RecordingQuery);
    });
  }

  private receive(m: RecordingMessage): void {
    if (this.analyses.receive(m)) return;
    if (!('id' in m)) return;
    const w = this.pending.get(m.id);
    if (!w) return;
    this.pending.delete(m.id);
    if (m.type === 'query-error') w.reject(new Error(m.message));
    else if (m.type === 'stale' || this.latest.get(w.type) !== m.id) w.resolve(null);
    else if (m.type !== w.type) w.reject(new Error(`unexpected answer '${m.type}' to '${w.type}'`));
    else w.resolve(m as Answer);
  }

  private end(why: string): void {
    this.gone = why;
    this.analyses.end(why);
    for (const w of this.pending.values()) w.reject(new Error(why));
    this.pending.clear();
  }
}
