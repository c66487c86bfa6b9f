// App state that belongs in the URL, so any view can be linked and tests can deep-link:
// ?scenario=<id>&seed=<n>&set=key=value&set=...
export interface UrlState {
  scenario: string | null;
  seed: number;
  overrides: string[];
}

export function readUrl(search: string): UrlState {
  const q = new URLSearchParams(search);
  const seed = Number(q.get('seed') ?? '1');
  return {
    scenario: q.get('scenario'),
    seed: Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32 ? seed : 1,
    overrides: q.getAll('set'),
  };
}

export function writeUrl(state: UrlState): string {
  const q = new URLSearchParams();
  if (state.scenario) q.set('scenario', state.scenario);
  if (state.seed !== 1) q.set('seed', String(state.seed));
  for (const o of state.overrides) q.append('set', o);
  const s = q.toString();
  return s ? `?${s}` : '';
}
