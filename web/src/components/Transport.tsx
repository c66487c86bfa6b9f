// Play/pause, step, speed, scrub and the spacing switch (and any view switch passed as children).
import type { ReactNode } from 'react';
import { formatNs } from '../viz/scales';

interface Props {
  playing: boolean;
  onPlay: () => void;
  onStep: (dir: 1 | -1) => void;
  rate: number;
  onRate: (r: number) => void;
  spacing: 'time' | 'event';
  onSpacing: (s: 'time' | 'event') => void;
  /** Why one step per event cannot be drawn (a run kept in its worker), or null. */
  spacingUnavailable?: string | null;
  cursor: number | null;
  end: number;
  onScrub: (t: number) => void;
  children?: ReactNode;
}

const RATES: [number, string][] = [
  [100, '100 ns/s'],
  [1000, '1 µs/s'],
  [10_000, '10 µs/s'],
  [100_000, '100 µs/s'],
  [1_000_000, '1 ms/s'],
];

export function Transport(p: Props) {
  return (
    <div className="transport" role="toolbar" aria-label="Playback">
      <button
        type="button"
        onClick={() => p.onStep(-1)}
        aria-label="Previous event"
        title="Previous event (,)"
      >
        ◀ prev
      </button>
      <button
        type="button"
        onClick={p.onPlay}
        aria-pressed={p.playing}
        title="Play / pause (Space)"
      >
        {p.playing ? '❚❚ pause' : '▶ play'}
      </button>
      <button
        type="button"
        onClick={() => p.onStep(1)}
        aria-label="Next event"
        title="Next event (.)"
      >
        next ▶
      </button>
      <label>
        Speed{' '}
        <select value={p.rate} onChange={(e) => p.onRate(Number(e.target.value))}>
          {RATES.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label className="scrub">
        Cursor{' '}
        <input
          type="range"
          min={0}
          max={p.end}
          step={Math.max(1, p.end / 1000)}
          value={p.cursor ?? 0}
          onChange={(e) => p.onScrub(Number(e.target.value))}
          aria-valuetext={p.cursor === null ? 'no cursor' : formatNs(p.cursor)}
        />
        <output>{p.cursor === null ? '—' : formatNs(p.cursor)}</output>
      </label>
      <label title={p.spacingUnavailable ?? undefined}>
        <input
          type="checkbox"
          checked={p.spacing === 'event' && !p.spacingUnavailable}
          disabled={!!p.spacingUnavailable}
          onChange={(e) => p.onSpacing(e.target.checked ? 'event' : 'time')}
        />{' '}
        one step per event
      </label>
      {p.children}
    </div>
  );
}
