// What a measured panel's marks share, categorical (measured.ts) or swept (measuredSweep.ts):
// the series symbols and the tooltip a mark carries.
import { symbolCircle, symbolDiamond, symbolSquare, symbolTriangle, symbolWye } from 'd3';
import { describeVerdict, formatValue, type OverlayPoint } from '../model/overlay';

export const SERIES_SYMBOLS = [
  symbolCircle,
  symbolSquare,
  symbolTriangle,
  symbolDiamond,
  symbolWye,
];
export const SERIES_SHAPE_NAMES = ['circle', 'square', 'triangle', 'diamond', 'wye'];

export function pointTitle(p: OverlayPoint, unit: string): string {
  const m = p.measurement;
  const lines = [
    `${m.variant}: ${formatValue(p.value, unit)}${p.lo !== null ? ` ± ${formatValue(p.value - p.lo, unit)}` : ' (no stddev stated)'}${m.runs ? `, ${m.runs} runs` : ''}`,
    `measured on ${m.machine} (${m.source})${m.aggregated ? `, mean of ${m.runs} per-run rows` : ''}`,
    `${m.origin.file}, row${m.rows.length > 1 ? 's' : ''} ${m.rows.join(m.aggregated && m.rows.length === 2 ? '–' : ', ')}`,
  ];
  if (p.prediction.status === 'done' && p.predicted !== null) {
    lines.push(
      `predicted by the tlbscope model (${p.prediction.scenario}, machine preset ${p.prediction.preset}): ${formatValue(p.predicted!, unit)}`,
    );
  }
  lines.push(describeVerdict(p.verdict, unit));
  return lines.join('\n');
}

export interface PanelOptions {
  metric: string;
  /** A logarithmic axis (only for positive values; ignored otherwise). */
  log: boolean;
}
