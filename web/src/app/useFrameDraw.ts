// How a timeline paces its draws. Changes of props draw on the next frame (several changes,
// one draw); an interaction draws at once, at most once per frame, so the frame that handles
// the input also shows it.
import { useCallback, useEffect, useRef } from 'react';

/**
 * `schedule` asks for a draw on the next frame, `drawNow` draws at once unless this frame has
 * drawn already. `changed` lets a scheduled frame skip a draw that would repeat the last one.
 */
export function useFrameDraw(draw: () => void, changed: () => boolean = always) {
  const frame = useRef(0);
  const drewThisFrame = useRef(false);
  const schedule = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      drewThisFrame.current = false;
      if (changed()) draw();
    });
  }, [draw, changed]);
  const drawNow = useCallback(() => {
    if (drewThisFrame.current) return schedule();
    drewThisFrame.current = true;
    draw();
    schedule();
  }, [draw, schedule]);
  // Cancel a pending draw on unmount, and forget it: React's StrictMode (dev) unmounts and
  // remounts, and a stale id would make schedule() think a draw is still pending forever.
  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    },
    [],
  );
  return { schedule, drawNow };
}

function always() {
  return true;
}
