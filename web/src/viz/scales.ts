// Scales of the timeline: simulated time → x, (cpu, sub-track) → y.
import { scaleLinear, type ScaleLinear } from 'd3';
import { TRACKS } from '../model/lanes';

export const LANE_LABEL_WIDTH = 110;
export const TRACK_HEIGHT = 10;
export const LANE_GAP = 10;
export const LANE_HEIGHT = TRACKS * TRACK_HEIGHT + LANE_GAP;
export const AXIS_HEIGHT = 28;

export interface Scales {
  x: ScaleLinear<number, number>;
  /** Top of a CPU's lane. */
  laneY: (cpu: number) => number;
  /** Top of a sub-track within a CPU's lane. */
  trackY: (cpu: number, track: number) => number;
  width: number;
  height: number;
}

export function toScales(cpus: number, window: [number, number], width: number): Scales {
  const x = scaleLinear()
    .domain(window)
    .range([LANE_LABEL_WIDTH, Math.max(LANE_LABEL_WIDTH + 10, width - 16)]);
  const laneY = (cpu: number) => AXIS_HEIGHT + cpu * LANE_HEIGHT;
  return {
    x,
    laneY,
    trackY: (cpu, track) => laneY(cpu) + track * TRACK_HEIGHT,
    width,
    height: AXIS_HEIGHT + cpus * LANE_HEIGHT,
  };
}

/** Formats a nanosecond count for axis ticks and tooltips: 950 ns, 1.2 µs, 3.4 ms. */
export function formatNs(ns: number): string {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${+(ns / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${+(ns / 1e6).toFixed(3)} ms`;
  if (a >= 1e3) return `${+(ns / 1e3).toFixed(3)} µs`;
  return `${+ns.toFixed(1)} ns`;
}
