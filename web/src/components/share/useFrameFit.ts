// How an embedded diagram adapts to its frame beyond scaling (FitBox): squeezed (squeeze.ts)
// when even the legible minimum scale is too tall, its lanes stretched when the largest scale
// still leaves the frame's lower part blank. Both start over when the frame or the step changes.
import { useEffect, useState } from 'react';
import { maxSqueeze, squeezeAt, stretchTrack, TRACK } from './squeeze';

export function useFrameFit(key: unknown, cpus: number, openLanes: number) {
  const [state, setState] = useState({ key, level: 0, track: TRACK });
  const now = state.key === key ? state : { key, level: 0, track: TRACK };
  useEffect(() => {
    const reset = () => setState((s) => ({ key: s.key, level: 0, track: TRACK }));
    window.addEventListener('resize', reset);
    return () => window.removeEventListener('resize', reset);
  }, []);
  const current = (s: typeof state) => (s.key === key ? s : { key, level: 0, track: TRACK });
  /** Too tall at the legible minimum: give back any stretch first, then show less. */
  const overflow = () =>
    setState((s0) => {
      const s = current(s0);
      if (s.track > TRACK) return { ...s, track: TRACK };
      return s.level >= maxSqueeze(cpus) ? s : { ...s, level: s.level + 1 };
    });
  /** Blank height under the diagram at its largest scale (in its own px): taller lanes. */
  const room = (px: number) =>
    setState((s0) => {
      const s = current(s0);
      // A few px either way is left as it is: the lanes' width changes with the scale, the
      // legend may wrap differently, and chasing that would rock the diagram back and forth.
      if (s.level > 0 || Math.abs(px) < 12) return s;
      // Half the room at a time: other rows may grow with the lanes (a magnified stretch has
      // one per CPU it concerns), and a full step would then overshoot and swing back.
      const track = stretchTrack(s.track, px / 2, openLanes);
      return Math.abs(track - s.track) < 0.25 ? s : { ...s, track };
    });
  return {
    squeeze: squeezeAt(now.level, cpus),
    level: now.level,
    track: now.track,
    overflow,
    room,
  };
}
