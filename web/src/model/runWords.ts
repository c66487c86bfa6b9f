// Words about a run that must agree with the run: a scenario title that names its machine size,
// and statistics that may have no samples or a mean pulled above p99 by a few outliers.
import type { Stats } from '../trace/trace';

const CPU_COUNT = /\b(\d[\d,]*)(-CPU\b| CPUs\b)/g;

/**
 * `title` with every CPU count it states ("a 4-CPU machine", "32 CPUs") replaced by the run's
 * own count, so a title written for the scenario's machine does not contradict a run the
 * reader resized with `cpus=`.
 */
export function titleForRun(title: string, cpus: number): string {
  return title.replace(CPU_COUNT, (whole, n: string, suffix: string) => {
    const said = Number(n.replace(/,/g, ''));
    if (said === cpus) return whole;
    return `${cpus.toLocaleString('en-US')}${suffix === ' CPUs' && cpus === 1 ? ' CPU' : suffix}`;
  });
}

/** A statistic as the simulator serialises it, or null when it is missing or has no samples. */
export function sampled(s: unknown): Stats | null {
  return s && typeof s === 'object' && 'count' in s && (s as Stats).count > 0 ? (s as Stats) : null;
}

export const NO_SAMPLES = 'no samples';

/**
 * Why a mean can sit above p99: nearest-rank p99 ignores the slowest 1 % of samples, and a
 * few very slow ones (a first operation that also page-faults) still pull the mean up. Null
 * when the mean is not above p99.
 */
export function meanAboveP99(s: Stats, fmt: (ns: number) => string): string | null {
  if (!(s.mean > s.p99)) return null;
  const tail = Math.max(1, Math.floor(s.count / 100));
  return (
    `The mean is above p99: at most ${tail.toLocaleString('en-US')} of the ` +
    `${s.count.toLocaleString('en-US')} samples lie above p99, but they reach ${fmt(s.max)} ` +
    `and pull the mean up. Read p50 for a typical sample.`
  );
}
