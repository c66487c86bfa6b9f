// App state that belongs in the URL, so any view can be linked and tests can deep-link:
// (nothing) = the landing page | ?view=data | ?scenario=<id>[&step=<n>]&seed=<n>&set=key=value&...
// &compare=1&setB=key=value&...
export type View = 'home' | 'explore' | 'data';

export interface UrlState {
  view: View;
  /** 1-based step of a guided scenario; null = the free sandbox. */
  step: number | null;
  scenario: string | null;
  seed: number;
  overrides: string[];
  compare: boolean;
  overridesB: string[];
}

export function readUrl(search: string): UrlState {
  const q = new URLSearchParams(search);
  const seed = Number(q.get('seed') ?? '1');
  return {
    view:
      q.get('view') === 'data'
        ? 'data'
        : q.get('scenario') || q.get('view') === 'explore'
          ? 'explore'
          : 'home',
    step: positiveInt(q.get('step')),
    scenario: q.get('scenario'),
    seed: Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32 ? seed : 1,
    overrides: q.getAll('set'),
    compare: q.get('compare') === '1',
    overridesB: q.getAll('setB'),
  };
}

export function writeUrl(state: UrlState): string {
  const q = new URLSearchParams();
  if (state.view === 'data') q.set('view', 'data');
  if (state.view === 'home') return '';
  if (state.view === 'explore' && !state.scenario) q.set('view', 'explore');
  if (state.scenario) q.set('scenario', state.scenario);
  if (state.step !== null) q.set('step', String(state.step));
  if (state.seed !== 1) q.set('seed', String(state.seed));
  for (const o of state.overrides) q.append('set', o);
  if (state.compare) {
    q.set('compare', '1');
    for (const o of state.overridesB) q.append('setB', o);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

function positiveInt(s: string | null): number | null {
  const n = Number(s);
  return s !== null && Number.isInteger(n) && n >= 1 ? n : null;
}
