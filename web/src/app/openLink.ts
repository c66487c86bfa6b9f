// A link as the page opens it: parsed, then checked against the shipped scenarios and the
// settings the controls offer, with everything left out named. Its own scenario (`source`) is
// still packed: useLinkSource.ts unpacks it.
import { DEFAULT_SCENARIO, scenarios } from '../content/scenarios';
import { checkLink } from './linkCheck';
import { parseUrl, type ParsedUrl } from './url';

export function openLink(search: string): ParsedUrl {
  const p = parseUrl(search);
  const ids = scenarios.map((s) => s.id);
  // The own scenario still unpacking (`source`) takes the place of any `scenario=`, unchecked.
  const c = checkLink(
    p.url,
    p.source && p.url.scenario ? [...ids, p.url.scenario] : ids,
    DEFAULT_SCENARIO,
  );
  // An embed always shows a diagram: the landing page's is the default scenario's.
  const url =
    c.value.embed && c.value.view === 'home' ? { ...c.value, view: 'explore' as const } : c.value;
  return {
    url,
    view: p.view,
    ignored: [...p.ignored, ...c.ignored],
    model: p.model,
    source: p.source,
  };
}
