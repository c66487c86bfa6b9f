// Link cases for the fuzzer: query strings for the page's URL state decoder (parseUrl in
// web/src/app/url.ts), made of the parameters a link holds with values good, wrong and wild,
// repeated, unknown or badly escaped, and `src` scenario texts compressed with lz-string and
// then cut or altered.
import lz from './lzString.mjs';

const KEYS = ['view', 'scenario', 'file', 'src', 'step', 'seed', 'set', 'compare', 'setB', 't'];
const MORE = ['win', 'ev', 'evB', 'spacing', 'theme', 'talk', 'embed', 'origin', 'chart', 'cx'];
const ALL = [...KEYS, ...MORE, 'remote', 'nope', '', '__proto__', 'constructor'];
const VALUES = {
  view: ['data', 'explore', 'counterexample', 'home', ''],
  scenario: ['x86-lazy-tlb', 'arm64-fork-cow', '../etc/passwd', ''],
  step: ['1', '0', '-1', '3.5', '1e9', '99999999999999999999'],
  seed: ['0', '1', '4294967295', '4294967296', '-1', 'nan'],
  set: ['pcid=off', 'cpus=4', 'cpus', '=', 'costs.x=1', 'flush_info=stack'],
  setB: ['pcid=on', 'cpus=999', 'a=b=c'],
  compare: ['1', '0', 'yes'],
  t: ['0', '-5', '1e400', '12345678901234567890', 'x'],
  win: ['0,100', '100,0', '1,', ',', 'a,b', '0,1e308', '-1,-2'],
  ev: ['0', '-1', '4294967296', '1.5'],
  evB: ['3', 'x'],
  spacing: ['event', 'time', 'other'],
  theme: ['light', 'dark', 'blue'],
  talk: ['1', '0'],
  embed: ['1', 'x'],
  origin: ['https://example.org', 'javascript:alert(1)', 'null', ''],
  chart: ['op_latency · mean', 'x'],
  cx: ['1', '0', '-3', 'x'],
  remote: ['500000', '0', '-1', '1e12'],
};
/** encodeURIComponent of any string: lone surrogates (which it refuses) become U+FFFD. */
const enc = (s) => encodeURIComponent(s.toWellFormed());

const WILD = ['%', '%zz', '%00', '%E2%80%AE', '\u0000', '\ud800', '&&&', '==', '+', '#', '?'];

function wild(r) {
  switch (r.int(0, 4)) {
    case 0:
      return r.pick(WILD);
    case 1:
      return String(r.int(-1e9, 1e12));
    case 2:
      return 'x'.repeat(r.int(0, 100_000));
    case 3:
      return Array.from({ length: r.int(0, 20) }, () => String.fromCharCode(r.int(0, 0xffff))).join(
        '',
      );
    default:
      return String(r.next());
  }
}

/** An lz-string `src`: a small scenario compressed, then maybe damaged. */
function src(r, scenarios) {
  const text = r.chance(0.8) ? r.pick(scenarios).text : wild(r);
  let s = lz.compressToEncodedURIComponent(
    text.slice(0, r.chance(0.5) ? text.length : r.int(0, 500)),
  );
  switch (r.int(0, 4)) {
    case 0:
      s = s.slice(0, r.int(0, s.length));
      break;
    case 1: {
      const at = r.int(0, s.length);
      s = s.slice(0, at) + r.pick(['$', '-', '+', 'A', '%', ' ']) + s.slice(at + 1);
      break;
    }
    case 2:
      s = wild(r);
      break;
    default:
  }
  return s;
}

/** A query string, with or without its `?`. */
export function linkCase(r, scenarios) {
  const parts = [];
  for (let k = r.int(0, 12); k > 0; k--) {
    const key = r.chance(0.9) ? r.pick([...KEYS, ...MORE]) : r.pick(ALL);
    let value;
    if (key === 'src') value = enc(src(r, scenarios));
    else if (Object.hasOwn(VALUES, key) && r.chance(0.8)) value = enc(r.pick(VALUES[key]));
    else value = r.chance(0.5) ? enc(wild(r)) : wild(r);
    parts.push(r.chance(0.05) ? key : `${key}=${value}`);
  }
  const q = parts.join(r.chance(0.97) ? '&' : r.pick([';', '&&', '&amp;']));
  return r.chance(0.8) ? `?${q}` : q;
}
