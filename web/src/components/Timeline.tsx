// Owns the <svg> element; D3 owns its children. Re-renders on new traces, resizes and zooms
// without going through React state on every zoom frame.
import { useEffect, useMemo, useRef } from 'react';
import { toArrows } from '../model/ipis';
import { toLanes } from '../model/lanes';
import type { Trace } from '../sim/trace';
import { renderTimeline } from '../viz/timeline';
import { attachZoom } from '../viz/zoom';

interface Props {
  trace: Trace;
  initiator: number;
  onRendered?: () => void;
}

export function Timeline({ trace, initiator, onRendered }: Props) {
  const svgRef = useRef<SVGSVGElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const input = useMemo(
    () => ({ trace, lanes: toLanes(trace), arrows: toArrows(trace), initiator }),
    [trace, initiator],
  );

  useEffect(() => {
    const svg = svgRef.current;
    const box = boxRef.current;
    if (!svg || !box) return;
    let window = input.lanes.extent;
    let detachZoom = () => {};
    const draw = () => renderTimeline(svg, input, box.clientWidth, window);
    const setup = () => {
      detachZoom();
      draw();
      detachZoom = attachZoom(svg, input.lanes.extent, box.clientWidth, (w) => {
        window = w;
        draw();
      });
    };
    setup();
    onRendered?.();
    const observer = new ResizeObserver(() => setup());
    observer.observe(box);
    return () => {
      observer.disconnect();
      detachZoom();
    };
  }, [input, onRendered]);

  return (
    <div className="timeline" ref={boxRef}>
      <svg ref={svgRef} aria-label="Per-CPU timeline of the simulated shootdown" />
    </div>
  );
}
