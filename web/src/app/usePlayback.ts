// Play: move the cursor forward through the run at `rate` simulated ns per real second.
// With reduced motion the cursor jumps event by event instead of gliding.
import { useEffect, useRef } from 'react';

export function usePlayback(
  playing: boolean,
  rate: number,
  reducedMotion: boolean,
  advance: (dtNs: number) => boolean,
  step: () => boolean,
): void {
  const advanceRef = useRef(advance);
  const stepRef = useRef(step);
  advanceRef.current = advance;
  stepRef.current = step;
  useEffect(() => {
    if (!playing) return;
    if (reducedMotion) {
      const id = setInterval(() => {
        if (!stepRef.current()) clearInterval(id);
      }, 500);
      return () => clearInterval(id);
    }
    let last = performance.now();
    let raf = requestAnimationFrame(function tick(now) {
      const more = advanceRef.current(((now - last) / 1000) * rate);
      last = now;
      if (more) raf = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(raf);
  }, [playing, rate, reducedMotion]);
}
