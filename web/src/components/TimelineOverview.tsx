// What the timeline's place shows while its model is built in the worker: the run's shape
// from the worker's lane aggregates (viz/overview.ts), or a note until they arrive.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LaneBuckets } from '../model/traceWindow';
import type { Trace } from '../trace/trace';
import { toPalette } from '../viz/columns';
import { renderOverview } from '../viz/overview';
import { overviewOf } from '../workers/session';

export function TimelineOverview({ trace }: { trace: Trace }) {
  const [buckets, setBuckets] = useState<LaneBuckets | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let live = true;
    setBuckets(null);
    overviewOf(trace).then((b) => live && setBuckets(b));
    return () => {
      live = false;
    };
  }, [trace]);
  useLayoutEffect(() => {
    if (!buckets || !canvas.current || !box.current) return;
    // The box's content width: its padding is not the canvas's to draw on.
    const style = getComputedStyle(box.current);
    const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const width = Math.max(100, Math.floor(box.current.clientWidth - pad));
    renderOverview(canvas.current, buckets, toPalette(box.current), width);
    performance.mark('tlbscope:overview', { detail: { version: trace.version } });
  }, [buckets, trace]);
  return (
    <div className="timeline-pending" aria-busy="true" ref={box}>
      {buckets ? (
        <>
          <p className="overview-note">
            Preparing the timeline… meanwhile, activity of {trace.n.toLocaleString('en-US')} rows on{' '}
            {buckets.cpus} CPUs (one strip per CPU, time left to right).
          </p>
          <canvas
            ref={canvas}
            className="timeline-overview"
            role="img"
            aria-label={`Overview of the run: activity on each of ${buckets.cpus} CPUs over time`}
          />
        </>
      ) : (
        'Preparing the timeline…'
      )}
    </div>
  );
}
