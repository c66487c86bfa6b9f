// Scales of the timeline: position (ns, or event index in event spacing) → x; the lane
// layout gives y. Sizes live here so marks, hit-testing and tests agree.
import { scaleLinear, type ScaleLinear } from 'd3';
import type { LaneLayout, LayoutSizes } from '../model/layout';

export const LANE_LABEL_WIDTH = 118;
export const RIGHT_PAD = 16;
export const TRACK_HEIGHT = 10;
export const LANE_GAP = 10;
export const AXIS_HEIGHT = 28;
export const SIZES: LayoutSizes = {
  trackHeight: TRACK_HEIGHT,
  laneGap: LANE_GAP,
  headerHeight: 20,
  top: AXIS_HEIGHT,
};

export interface Scales {
  /** Position → x in CSS pixels. Domain is the visible window in positions. */
  x: ScaleLinear<number, number>;
  layout: LaneLayout;
  /** Height of one sub-track (TRACK_HEIGHT, taller in an embed with height to spare). */
  track: number;
  /** Top of a sub-track in the lane showing `cpu`. */
  trackY: (cpu: number, track: number) => number;
  width: number;
  height: number;
  /** Plot area, [left, right] in CSS pixels. */
  plot: [number, number];
}

export function toScales(
  layout: LaneLayout,
  window: [number, number],
  width: number,
  /** Height of what is drawn under the CPU lanes (the generation tracks). */
  below = 0,
  track = TRACK_HEIGHT,
): Scales {
  const plot: [number, number] = [
    LANE_LABEL_WIDTH,
    Math.max(LANE_LABEL_WIDTH + 10, width - RIGHT_PAD),
  ];
  const x = scaleLinear().domain(window).range(plot);
  return {
    x,
    layout,
    track,
    // A folded CPU's marks are not drawn; what reaches it (an arrow) ends mid-strip.
    trackY: (cpu, t) =>
      layout.folded(cpu)
        ? layout.laneTop(cpu) + (SIZES.headerHeight - TRACK_HEIGHT) / 2
        : layout.laneTop(cpu) + t * track,
    width,
    height: layout.height + below + 4,
    plot,
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
