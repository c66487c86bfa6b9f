// What "Model this recording" needs of an imported recording: read off its rows where they are
// in the page, off its summary alone where they stay in the import's worker.
import type { RecordingFacts } from '../model/modelOfRecording';
import { EventKind } from '../trace/trace';
import type { RecordedRun } from './asRun';
import { TLB_FLUSH_REASONS } from './payload';
import type { RecordingSummary } from './summary';

export function modelFacts(run: RecordedRun): RecordingFacts {
  const source = run.recording.source ?? null;
  const s = run.summary as RecordingSummary;
  const t = run.trace;
  const initiator = run.recording.initiator;
  const targets: Record<number, number> = {};
  const pageCounts = new Map<number, number>();
  if (!t.remote) {
    for (let i = 0; i < t.n; i++) {
      if (t.cpu[i] !== initiator) continue;
      if (t.kind[i] === EventKind.IpiSent) targets[t.arg[i]] = (targets[t.arg[i]] ?? 0) + 1;
      else if (t.kind[i] === EventKind.FlushRange)
        pageCounts.set(t.arg[i], (pageCounts.get(t.arg[i]) ?? 0) + 1);
    }
  } else if (s.targets_per_shootdown !== null) {
    // Rows not at hand: as many busy CPUs as an average shootdown reached, after the initiator.
    const n = Math.round(s.targets_per_shootdown);
    for (let k = 1; k <= n; k++) targets[(initiator + k) % s.cpus] = s.shootdowns;
  }
  const pages = [...pageCounts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;
  return {
    cpus: s.cpus,
    initiator,
    shootdowns: s.shootdowns,
    // "local MM shootdown": an op no other CPU needed telling of.
    localShootdowns: s.flushes_by_reason[TLB_FLUSH_REASONS[3]] ?? 0,
    targets,
    pages,
    machine: source?.machine ?? null,
    command: source?.command ?? null,
  };
}
