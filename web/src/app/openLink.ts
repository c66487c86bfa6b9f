// A link as the page opens it: parsed, then checked against the shipped scenarios and the
// settings the controls offer, with everything left out named.
import { DEFAULT_SCENARIO, scenarios } from '../content/scenarios';
import { checkLink } from './linkCheck';
import { parseUrl, type ParsedUrl } from './url';

export function openLink(search: string): ParsedUrl {
  const p = parseUrl(search);
  const c = checkLink(
    p.url,
    scenarios.map((s) => s.id),
    DEFAULT_SCENARIO,
  );
  // An embed always shows a diagram: the landing page's is the default scenario's.
  const url =
    c.value.embed && c.value.view === 'home' ? { ...c.value, view: 'explore' as const } : c.value;
  return { url, view: p.view, ignored: [...p.ignored, ...c.ignored], model: p.model };
}
