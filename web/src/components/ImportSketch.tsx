// The rows of a recording read so far, drawn while the import worker still reads it
// (recording/sketch.ts): a lane per CPU, each time bin shaded by how many rows fell in it. A
// canvas: a 64-CPU sketch is 15,000 cells, redrawn ten times a second.
import { useEffect, useRef } from 'react';
import type { ImportSketch } from '../recording/sketch';
import { formatNs } from '../viz/scales';
import './importSketch.css';

const LANE_PX = 3;
const MAX_PX = 160;

export function ImportSketchView({ sketch }: { sketch: ImportSketch }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const cells = useRef(0);
  const lanePx = Math.max(1, Math.min(LANE_PX, Math.floor(MAX_PX / Math.max(1, sketch.cpus))));
  const height = Math.max(lanePx, sketch.cpus * lanePx);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const { cpus, bins, counts } = sketch;
    const w = canvas.width;
    ctx.clearRect(0, 0, w, canvas.height);
    let max = 1;
    for (const n of counts) if (n > max) max = n;
    const color = getComputedStyle(canvas).color || '#36c';
    ctx.fillStyle = color;
    let drawn = 0;
    const cellPx = w / bins;
    for (let c = 0; c < cpus; c++) {
      for (let b = 0; b < bins; b++) {
        const n = counts[c * bins + b];
        if (!n) continue;
        // Logarithmic shade: a lane's few handler rows stay visible beside a busy initiator's.
        ctx.globalAlpha = 0.25 + (0.75 * Math.log1p(n)) / Math.log1p(max);
        ctx.fillRect(b * cellPx, c * lanePx, Math.ceil(cellPx), lanePx);
        drawn++;
      }
    }
    ctx.globalAlpha = 1;
    if (drawn > 0 && cells.current === 0) performance.mark('tlbscope:import-sketch');
    cells.current = drawn;
    canvas.dataset.cells = String(drawn);
  }, [sketch, lanePx]);
  return (
    <figure className="import-sketch">
      <canvas
        ref={ref}
        width={720}
        height={height}
        data-rows={sketch.rows}
        role="img"
        aria-label={`${sketch.rows.toLocaleString('en-US')} rows read so far on ${sketch.cpus} CPUs`}
      />
      <figcaption className="muted">
        {sketch.rows.toLocaleString('en-US')} rows read so far, drawn over the first{' '}
        {formatNs(sketch.spanNs)}
      </figcaption>
    </figure>
  );
}
