// A/B flush matching when A or B (or both) stays in its worker (Trace.remote): each such side's
// flushes are scanned in its worker by the page's own flushesOf (model/flushMatch.ts FlushScan)
// and sent as the flush list (a few hundred bytes a flush, no per-row array); the match is
// then the page's matchFacts, as for runs on the page. Until both sides have answered, null.
import { useEffect, useState } from 'react';
import { flushesOf, matchFacts, type FlushesOf, type FlushMatch } from '../model/flushMatch';
import { isRecorded } from '../recording/asRun';
import type { RunResult } from '../sim/run';
import { traceWindowOf } from '../workers/session';

async function factsOf(r: RunResult): Promise<FlushesOf | null> {
  if (!r.trace.remote) return flushesOf(r.trace);
  const client = traceWindowOf(r.trace);
  return client ? client.flushes(r.trace.strings) : null;
}

export function useRemoteMatch(a: RunResult | null, b: RunResult | null): FlushMatch | null {
  const [done, setDone] = useState<{ a: RunResult; b: RunResult; match: FlushMatch } | null>(null);
  useEffect(() => {
    if (!a || !b) return;
    let live = true;
    Promise.all([factsOf(a), factsOf(b)])
      .then(([fa, fb]) => {
        const byCpuOnly = isRecorded(a) || isRecorded(b);
        if (live && fa && fb) setDone({ a, b, match: matchFacts(fa, fb, { byCpuOnly }) });
      })
      .catch(() => {}); // a run replaced meanwhile: its match is not wanted
    return () => {
      live = false;
    };
  }, [a, b]);
  return done && done.a === a && done.b === b ? done.match : null;
}
