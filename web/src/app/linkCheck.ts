// What a link may name that only the app knows is wrong: a scenario that is not shipped, a
// value the controls do not offer, and (once the run exists) a step, event or time the run
// does not have. Each check returns the nearest valid state and says what it left out.
import { SETTINGS } from './settings';
import type { UrlState, ViewState } from './url';

export interface Checked<T> {
  value: T;
  ignored: string[];
}

/** Before running: the scenario id and every setting. */
export function checkLink(
  url: UrlState,
  scenarioIds: readonly string[],
  defaultScenario: string,
): Checked<UrlState> {
  const ignored: string[] = [];
  let scenario = url.scenario;
  if (scenario !== null && !url.custom && !scenarioIds.includes(scenario)) {
    ignored.push(`scenario=${scenario}: no such scenario; showing ${defaultScenario}`);
    scenario = defaultScenario;
  }
  const keep = (name: string) => (o: string) => {
    const why = settingProblem(o);
    if (why) ignored.push(`${name}=${o}: ${why}`);
    return !why;
  };
  const overrides = url.overrides.filter(keep('set'));
  const overridesB = url.overridesB.filter(keep('setB'));
  if (!url.compare && url.overridesB.length)
    ignored.push('setB: B settings without compare=1 are not shown');
  return { value: { ...url, scenario, overrides, overridesB }, ignored };
}

const SETTING_KEY = /^(?:(?:machine|design|workload|costs)\.)?[a-z][a-z0-9_]*$/;

export function settingProblem(o: string): string | null {
  const i = o.indexOf('=');
  const key = o.slice(0, i);
  const value = o.slice(i + 1);
  // What a link cannot hold (it reads `key=value` with neither in the value) is refused here
  // too, for the embed's host, whose settings the page writes into its link.
  if (/[=\s]/.test(value)) return `${key}'s value may not hold "=" or blanks`;
  const s = SETTINGS.find((x) => x.key === key);
  // The controls offer a few of the simulator's settings; the rest (run budgets, workload
  // knobs, costs.<name> from a fit, dotted machine./design./workload. fields) go to the
  // simulator as they are, which names the field of any it rejects.
  if (!s) return SETTING_KEY.test(key) ? null : `${key || '(empty)'} is not a setting name`;
  if (s.values) {
    return s.values.includes(value) ? null : `${key} is one of ${s.values.join(', ')}`;
  }
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) return `${key} is a number`;
  if ((s.min !== undefined && n < s.min) || (s.max !== undefined && n > s.max))
    return `${key} is from ${s.min} to ${s.max}`;
  return null;
}

export interface RunFacts {
  steps: number;
  events: number;
  /** A/B: B's events (absent: no comparison). */
  eventsB?: number;
  extent: [number, number];
}

/** After the run: the step, the selected event, the cursor and the window. */
export function checkAgainstRun(
  step: number | null,
  view: ViewState,
  run: RunFacts,
): Checked<{ step: number | null; view: ViewState }> {
  const ignored: string[] = [];
  let s = step;
  if (s !== null && s > run.steps) {
    ignored.push(
      run.steps
        ? `step=${s}: this scenario has ${run.steps} steps; showing the free sandbox`
        : `step=${s}: this scenario has no guided steps`,
    );
    s = null;
  }
  let { cursor, window, selected } = view;
  const [lo, hi] = run.extent;
  if (selected !== null && selected >= run.events) {
    ignored.push(`ev=${selected}: this run has ${run.events} events (0 to ${run.events - 1})`);
    selected = null;
  }
  let selectedB = view.selectedB ?? null;
  if (selectedB !== null && selectedB >= (run.eventsB ?? 0)) {
    ignored.push(
      run.eventsB === undefined
        ? `evB=${selectedB}: there is no run B`
        : `evB=${selectedB}: run B has ${run.eventsB} events (0 to ${run.eventsB - 1})`,
    );
    selectedB = null;
  }
  if (cursor !== null && cursor > hi) {
    ignored.push(`t=${cursor}: this run ends at ${Math.round(hi)} ns`);
    cursor = null;
  }
  if (window !== null && (window[0] >= hi || window[1] <= lo)) {
    ignored.push(
      `win=${window.join(',')}: outside this run (${Math.round(lo)} to ${Math.round(hi)} ns)`,
    );
    window = null;
  }
  return {
    value: {
      step: s,
      view: { ...view, cursor, window, selected, selectedB: selectedB ?? undefined },
    },
    ignored,
  };
}
