// Everything needed to reproduce a view lives in the URL, so a link shows the same picture on
// another machine (README "Links"). Pure: parse and write, nothing else. Parsing never throws;
// what it cannot use is named in `ignored` and left out, so a broken link opens the nearest
// valid view. The own scenario a link carries (`src=`) is not unpacked here: `parseUrl` hands it
// over as `source`, the page unpacks it in a worker and `withSource` adds the result.
//
// (nothing) = the landing page | ?view=data[&chart=<benchmark · metric>] | ?view=explore | ?scenario=<id> or
// ?file=<name>&src=<lz-string> (the user's own scenario text) then
// &step=<n>&seed=<n>&set=key=value…&compare=1&setB=key=value…
// &t=<cursor ns>&win=<from ns>,<to ns>&ev=<event row of A>|evB=<event row of B>&spacing=event
// &view=counterexample[&cx=<n>] (check every interleaving; A shows the counterexample, at step n)
// and, on any view, &theme=light|dark &talk=1 &embed=1 &origin=<host origin> &remote=<rows>.
import { linkTooLong } from './linkCap';
import { sourceParam } from './linkSource';
import { unpackSource, type LinkSource, type SourceRead } from './unpackSource';

export type { LinkSource } from './unpackSource';

export type View = 'home' | 'explore' | 'data';
export type Theme = 'light' | 'dark';

/** A scenario file the user loaded, carried whole in the link. */
export interface OwnScenario {
  name: string;
  text: string;
}

export interface UrlState {
  view: View;
  /** 1-based step of a guided scenario; null = the free sandbox. */
  step: number | null;
  scenario: string | null;
  /** The user's own scenario, run instead of `scenario`. */
  custom?: OwnScenario | null;
  seed: number;
  overrides: string[];
  compare: boolean;
  overridesB: string[];
  /**
   * Check every interleaving (`view=counterexample`): A (and B) show their verdict, and a
   * violated run's counterexample instead of the seeded run.
   */
  check?: boolean;
  /** The counterexample's step being looked at (`cx=`, from 1); null: the check's first. */
  cxStep?: number | null;
  /** Forced colour theme; absent = follow the system. */
  theme?: Theme | null;
  /** Flags other parts of the app own; carried through every URL change unchanged. */
  talk?: boolean;
  embed?: boolean;
  /** The embedding page's origin, the only one whose messages an embed obeys. */
  origin?: string | null;
  /** The Measured data chart an embed of the data view shows (its id); null = the first. */
  chart?: string | null;
  /**
   * `remote=<rows>`: a run or an imported recording of more rows than this stays in its worker
   * (default 2,000,000, workers/protocol.ts REMOTE_ABOVE_ROWS); tests set it low to exercise
   * that path.
   */
  remoteAbove?: number | null;
}

/** The explorer's continuous state: where the user looks. null = the view's default. */
export interface ViewState {
  cursor: number | null;
  window: [number, number] | null;
  selected: number | null;
  /** A/B: the selected event of B (its row in B's trace); at most one of the two is set. */
  selectedB?: number | null;
  spacing: 'time' | 'event';
}

export const NO_VIEW: ViewState = { cursor: null, window: null, selected: null, spacing: 'time' };

export interface ParsedUrl {
  url: UrlState;
  view: ViewState;
  /** One line per part of the link that was not used, saying what and why. */
  ignored: string[];
  /** `model=`: the simulator model version the link was made with; null = not said. */
  model?: number | null;
  /**
   * The own scenario the link carries, still packed: `url.custom` is null until `withSource`
   * adds what it unpacks to. Absent when the link has none, or `src=` is over the link cap.
   */
  source?: LinkSource | null;
}

const KNOWN = new Set([
  'view',
  'scenario',
  'file',
  'src',
  'step',
  'seed',
  'set',
  'compare',
  'setB',
  't',
  'win',
  'ev',
  'evB',
  'spacing',
  'theme',
  'talk',
  'embed',
  'origin',
  'chart',
  'cx',
  'remote',
  'model',
]);

export function parseUrl(search: string): ParsedUrl {
  const q = new URLSearchParams(search);
  const ignored: string[] = [];
  const skip = (name: string, why: string) =>
    ignored.push(`${name}=${clip(q.get(name) ?? '')}: ${why}`);

  for (const k of new Set(q.keys())) {
    if (!KNOWN.has(k)) ignored.push(`${k}: not something a tlbscope link holds`);
  }

  let source: LinkSource | null = null;
  if (q.has('src')) {
    const src = q.get('src') ?? '';
    // Refused before anything is unpacked: the length alone says it.
    const long = linkTooLong(src.length, 'the scenario text');
    if (long) skip('src', long);
    else source = { name: q.get('file') || 'scenario.toml', src };
  }

  const rawView = q.get('view');
  if (rawView !== null && !['data', 'explore', 'counterexample'].includes(rawView))
    skip('view', 'the views are explore, counterexample and data');
  const scenario = q.get('scenario') || null;
  const view: View =
    rawView === 'data'
      ? 'data'
      : scenario || q.has('src') || rawView === 'explore' || rawView === 'counterexample'
        ? 'explore'
        : 'home';
  const check = view === 'explore' && rawView === 'counterexample';
  let cxStep = q.has('cx') ? positiveInt(q.get('cx')) : null;
  if (q.has('cx') && cxStep === null) skip('cx', 'counterexample steps are numbered from 1');
  else if (cxStep !== null && !check) {
    skip('cx', 'a counterexample step needs view=counterexample');
    cxStep = null;
  }

  let seed = 1;
  if (q.has('seed')) {
    const n = Number(q.get('seed'));
    if (isU32(q.get('seed'))) seed = n;
    else skip('seed', 'a seed is a whole number from 0 to 4294967295; using seed 1');
  }

  const step = q.has('step') ? positiveInt(q.get('step')) : null;
  if (q.has('step') && step === null) skip('step', 'steps are numbered from 1');

  const overrides = q.getAll('set').filter((s) => setting(s, 'set', ignored));
  const compare = q.get('compare') === '1';
  if (q.has('compare') && !['0', '1'].includes(q.get('compare') ?? ''))
    skip('compare', 'compare is 1 or 0');
  const overridesB = q.getAll('setB').filter((s) => setting(s, 'setB', ignored));

  const cursor = q.has('t') ? finiteNonNeg(q.get('t')) : null;
  if (q.has('t') && cursor === null) skip('t', 'the cursor is a time in ns, 0 or more');
  let window: [number, number] | null = null;
  if (q.has('win')) {
    const parts = (q.get('win') ?? '').split(',').map(finiteNonNeg);
    if (parts.length === 2 && parts[0] !== null && parts[1] !== null && parts[0] < parts[1])
      window = [parts[0], parts[1]];
    else skip('win', 'the window is two times in ns, from,to, with from < to');
  }
  const selected = q.has('ev') ? nonNegInt(q.get('ev')) : null;
  if (q.has('ev') && selected === null) skip('ev', 'events are numbered from 0');
  let selectedB = q.has('evB') ? nonNegInt(q.get('evB')) : null;
  if (q.has('evB') && selectedB === null) skip('evB', 'events are numbered from 0');
  else if (selectedB !== null && !compare) {
    skip('evB', 'an event of B needs compare=1');
    selectedB = null;
  } else if (selectedB !== null && selected !== null) {
    skip('evB', 'one event is selected at a time, and ev= names one of A');
    selectedB = null;
  }
  const rawSpacing = q.get('spacing');
  if (rawSpacing !== null && !['time', 'event'].includes(rawSpacing))
    skip('spacing', 'spacing is time or event');
  const rawTheme = q.get('theme');
  if (rawTheme !== null && rawTheme !== 'light' && rawTheme !== 'dark')
    skip('theme', 'the themes are light and dark');
  const remoteAbove = q.has('remote') ? nonNegInt(q.get('remote')) : null;
  if (q.has('remote') && remoteAbove === null)
    skip('remote', 'the rows above which a recording stays in its worker: 0 or more');
  const model = q.has('model') ? positiveInt(q.get('model')) : null;
  if (q.has('model') && model === null) skip('model', 'the model version is a whole number from 1');
  const origin = q.get('origin');
  const goodOrigin = origin !== null && isOrigin(origin);
  if (origin !== null && !goodOrigin) skip('origin', 'an origin is scheme://host[:port]');

  return {
    url: {
      view,
      step,
      scenario,
      custom: null,
      seed,
      overrides,
      compare,
      overridesB,
      ...(check ? { check, cxStep } : {}),
      theme: rawTheme === 'light' || rawTheme === 'dark' ? rawTheme : null,
      talk: flag(q, 'talk'),
      embed: flag(q, 'embed'),
      origin: goodOrigin ? origin : null,
      chart: q.get('chart') || null,
      ...(remoteAbove !== null ? { remoteAbove } : {}),
    },
    view: {
      cursor,
      window,
      selected,
      // Only present when set: a view of A alone has no B.
      ...(selectedB !== null ? { selectedB } : {}),
      spacing: rawSpacing === 'event' ? 'event' : 'time',
    },
    ignored,
    model,
    ...(source ? { source } : {}),
  };
}

/** `url` with the own scenario `source` unpacked to (`read`), or the line saying why not. */
export function withSource(
  url: UrlState,
  source: LinkSource,
  read: SourceRead,
): { url: UrlState; ignored: string[] } {
  if ('problem' in read) return { url, ignored: [`src=${clip(source.src)}: ${read.problem}`] };
  return { url: { ...url, custom: { name: source.name, text: read.text } }, ignored: [] };
}

/** The whole state of a link, its own scenario unpacked right here (tests and tools). */
export function readUrl(search: string): UrlState {
  const p = parseUrl(search);
  return p.source ? withSource(p.url, p.source, unpackSource(p.source.src)).url : p.url;
}

/** The query string (with its `?`, or '' for the plain landing page) of a state. */
export function writeUrl(state: UrlState, view: ViewState = NO_VIEW): string {
  const q = new URLSearchParams();
  let packed: string | null = null;
  if (state.view === 'data') {
    q.set('view', 'data');
    if (state.chart) q.set('chart', state.chart);
  }
  if (state.view === 'explore') {
    // An own scenario too large for a link (or still being packed) leaves the link without it.
    const src = state.custom ? sourceParam(state.custom.text) : null;
    if (state.custom && src !== 'too large' && src !== 'pending') {
      q.set('file', state.custom.name);
      packed = src ?? '';
    } else if (state.custom) {
      if (!state.check) q.set('view', 'explore');
    } else if (state.scenario) q.set('scenario', state.scenario);
    else if (!state.check) q.set('view', 'explore');
    if (state.check) {
      q.set('view', 'counterexample');
      if (state.cxStep) q.set('cx', String(state.cxStep));
    }
    if (state.step !== null) q.set('step', String(state.step));
    if (state.seed !== 1) q.set('seed', String(state.seed));
    for (const o of state.overrides) q.append('set', o);
    if (state.compare) {
      q.set('compare', '1');
      for (const o of state.overridesB) q.append('setB', o);
    }
    if (view.cursor !== null) q.set('t', ns(view.cursor));
    if (view.window) q.set('win', `${ns(view.window[0])},${ns(view.window[1])}`);
    if (view.selected !== null) q.set('ev', String(view.selected));
    else if (state.compare && view.selectedB != null) q.set('evB', String(view.selectedB));
    if (view.spacing === 'event') q.set('spacing', 'event');
  }
  if (state.theme) q.set('theme', state.theme);
  if (state.talk) q.set('talk', '1');
  if (state.embed) q.set('embed', '1');
  if (state.origin) q.set('origin', state.origin);
  if (state.remoteAbove != null) q.set('remote', String(state.remoteAbove));
  const s = q.toString();
  // `src=` (up to the 128 KiB link cap) joins after `file=`, the first parameter, encoded once
  // per text: the address bar is rewritten as the reader looks around, and passing it through
  // URLSearchParams each time held the page for tens of ms.
  if (packed !== null) {
    const i = s.indexOf('&');
    const src = `src=${formEncoded(packed)}`;
    return i < 0 ? `?${s}&${src}` : `?${s.slice(0, i)}&${src}${s.slice(i)}`;
  }
  return s ? `?${s}` : '';
}

let lastEncoded = { text: '', encoded: '' };

/** `s` as URLSearchParams writes a value: encodeURIComponent, but space as + and !'()~ escaped. */
export function formEncoded(s: string): string {
  if (lastEncoded.text !== s) {
    const encoded = encodeURIComponent(s)
      .replace(/%20/g, '+')
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    lastEncoded = { text: s, encoded };
  }
  return lastEncoded.encoded;
}

/** Whether going from `a` to `b` is a new place to go back to (a step, a run, a view). */
export function isNewPlace(a: UrlState, b: UrlState): boolean {
  return writeUrl(a) !== writeUrl(b);
}

// Times to 0.1 ns: far below a pixel at any zoom, and links stay short.
// Tenths of a ns, except for times so large that ×10 would overflow to Infinity (a link's
// window may be as wide as 1e308, and the link written for it must read back).
const ns = (x: number) => String(Math.abs(x) < 1e300 ? Math.round(x * 10) / 10 : Math.round(x));

/** `?embed`, `?embed=1` and `?embed=true` all mean yes; `?embed=0` no. */
function flag(q: URLSearchParams, name: string): boolean {
  return q.has(name) && !['0', 'false'].includes(q.get(name) ?? '');
}

function setting(s: string, name: string, ignored: string[]): boolean {
  // A dotted key is a field of a section: a fit's `costs.<name>`, `workload.flushes`.
  if (/^(?:(?:machine|design|workload|costs)\.)?[a-z_0-9]+=[^=\s]+$/.test(s)) return true;
  ignored.push(`${name}=${clip(s)}: a setting is written key=value`);
  return false;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function isU32(s: string | null): boolean {
  const n = Number(s);
  return s !== null && s.trim() !== '' && Number.isInteger(n) && n >= 0 && n < 2 ** 32;
}

function positiveInt(s: string | null): number | null {
  const n = Number(s);
  return s !== null && s.trim() !== '' && Number.isInteger(n) && n >= 1 ? n : null;
}

function nonNegInt(s: string | null): number | null {
  const n = Number(s);
  return s !== null && s.trim() !== '' && Number.isInteger(n) && n >= 0 ? n : null;
}

function finiteNonNeg(s: string | null): number | null {
  const n = Number(s);
  return s !== null && s.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : null;
}

function isOrigin(s: string): boolean {
  try {
    return new URL(s).origin === s;
  } catch {
    return false;
  }
}
