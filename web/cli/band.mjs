// `--band` for run and sweep: each run again with every estimated cost at the bottom and at
// the top of its range (web/src/model/band.ts says which and how far), and every figure of its
// summary given as low / central / high with the band's width.
import { bandOf, bandWidth, boundOverrides } from '../src/model/band';
import { isStat, STAT_FIELDS } from './csv.mjs';
import { runOnce } from './run.mjs';
/** @import { CliRun } from './run.mjs' */
/** @import { SimulatorApi } from '../src/sim/run' */

/**
 * @typedef {{ low: number, central: number, high: number, width: number | null }} BandFigure
 */

/**
 * The band of every figure of `run`'s summary, from its two end runs.
 * @param {SimulatorApi} wasm
 * @param {string} text
 * @param {string} file
 * @param {CliRun} run
 * @returns {Record<string, BandFigure>}
 */
export function bandOfRun(wasm, text, file, run) {
  const ends = boundOverrides(run.costs, run.overrides);
  const atLow = runOnce(wasm, text, file, [...run.overrides, ...ends.low], run.seed);
  const atHigh = runOnce(wasm, text, file, [...run.overrides, ...ends.high], run.seed);
  return summaryBand(run.summary, atLow.summary, atHigh.summary);
}

/**
 * @param {Record<string, unknown>} central
 * @param {Record<string, unknown>} low
 * @param {Record<string, unknown>} high
 * @returns {Record<string, BandFigure>}
 */
export function summaryBand(central, low, high) {
  /** @type {Record<string, BandFigure>} */
  const out = {};
  /** @param {string} name @param {unknown} c @param {unknown} l @param {unknown} h */
  const add = (name, c, l, h) => {
    if (typeof c !== 'number' || typeof l !== 'number' || typeof h !== 'number') return;
    const b = bandOf(c, l, h);
    if (b) out[name] = { ...b, width: round(bandWidth(b)) };
  };
  for (const [key, c] of Object.entries(central)) {
    const [l, h] = [low[key], high[key]];
    if (isStat(c)) {
      // A statistic with no samples has no value to give a band to.
      if (c.count === 0) continue;
      for (const f of STAT_FIELDS)
        add(`${key}.${f}`, c[f], isStat(l) ? l[f] : undefined, isStat(h) ? h[f] : undefined);
    } else add(key, c, l, h);
  }
  return out;
}

/** @param {number | null} x */
function round(x) {
  return x === null ? null : Math.round(x * 100) / 100;
}
