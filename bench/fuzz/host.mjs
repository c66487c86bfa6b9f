// Host message cases for the fuzzer: what a page holding tlbscope in an <iframe> may post to
// it, through the embed's reader (readHostMessage in web/src/app/embedApi.ts). Commands good
// and bad, from the trusted origin or another, and data no host should send: huge strings and
// arrays, many keys, deep nesting, cycles, Maps, Sets, typed arrays, BigInts, Dates. Each
// is passed through structuredClone, as postMessage delivers it.

const ORIGIN = 'https://deck.example';
const COMMANDS = ['goto', 'next', 'prev', 'play', 'pause', 'set', 'frobnicate', '', 'GOTO'];
const KEYS = ['pcid', 'cpus', 'flush_info', 'costs.ipi_delivery_ns', 'seed', '', '=', 'a=b'];
const VALUES = ['off', 'on', '4', '512', '0', '-1', '', 'stack', 'x'.repeat(1025), '1e309'];

function scalar(r) {
  return r.pick([
    0,
    -1,
    3,
    2.5,
    NaN,
    Infinity,
    -0,
    2 ** 53 + 2,
    10n ** 30n,
    '',
    'x'.repeat(r.int(0, 300)),
    null,
    undefined,
    true,
    new Date(r.int(0, 2e12)),
    /re+/g,
    '\ud800',
    '\u202e',
  ]);
}

/** A value that is large, deep or many: rare, as each costs milliseconds to make and clone. */
function heavy(r) {
  switch (r.int(0, 6)) {
    case 0:
      return 'x'.repeat(r.int(60_000, 200_000));
    case 1:
      return new Array(r.pick([70_000, 300_000])).fill(r.pick([0, 'x', null]));
    case 2: {
      const o = {};
      for (let k = r.pick([1000, 50_000]); k > 0; k--) o[`k${k}`] = k;
      return o;
    }
    case 3: {
      let o = {};
      const top = o;
      for (let k = r.int(1000, 20_000); k > 0; k--) o = o.next = {};
      return top;
    }
    case 4:
      return new Map(Array.from({ length: r.int(10_000, 100_000) }, (_, k) => [k, k]));
    case 5:
      return new Set(Array.from({ length: r.int(10_000, 100_000) }, (_, k) => `s${k}`));
    default:
      return new Uint8Array(r.pick([65_536, 1 << 20]));
  }
}

/** A value no host should send: of an odd type, cyclic, nested, now and then huge. */
function wild(r, depth = 0) {
  if (r.chance(0.002)) return heavy(r);
  // Few children below the top: a tree of 20 at each of four levels is 160,000 values.
  const n = depth === 0 ? 20 : 3;
  switch (depth > 2 ? 0 : r.int(0, 8)) {
    case 0:
      return scalar(r);
    case 1:
      return Array.from({ length: r.int(0, n) }, () => wild(r, depth + 1));
    case 2: {
      const o = {};
      for (let k = r.int(0, n); k > 0; k--) o[`k${k}`] = wild(r, depth + 1);
      return o;
    }
    case 3: {
      let o = {};
      const top = o;
      for (let k = r.int(1, 50); k > 0; k--) o = o.next = {};
      return top;
    }
    case 4: {
      const o = { type: 'tlbscope', command: 'set' };
      o.self = o;
      o.key = r.chance(0.5) ? o : 'pcid';
      return o;
    }
    case 5:
      return new Map(Array.from({ length: r.int(0, n) }, (_, k) => [k, wild(r, depth + 1)]));
    case 6:
      return new Set(Array.from({ length: r.int(0, 20) }, (_, k) => `s${k}`));
    case 7:
      return new Uint8Array(r.int(0, 64));
    default:
      return { [r.pick(['__proto__', 'constructor', 'toString', 'type'])]: wild(r, depth + 1) };
  }
}

function command(r) {
  const m = { type: r.chance(0.9) ? 'tlbscope' : r.pick(['tlbscope ', 'TLBSCOPE', 1, null]) };
  const c = r.chance(0.9) ? r.pick(COMMANDS) : wild(r);
  m.command = c;
  if (c === 'goto' || r.chance(0.1))
    m.step = r.chance(0.7) ? r.int(0, 12) : r.pick([-1, 1.5, '3', NaN, 2 ** 53, null]);
  if (c === 'set' || r.chance(0.1)) {
    m.key = r.chance(0.8) ? r.pick(KEYS) : r.chance(0.5) ? wild(r) : 'k'.repeat(r.int(0, 300));
    m.value = r.chance(0.8) ? r.pick(VALUES) : wild(r);
    if (r.chance(0.3)) m.side = r.pick(['A', 'B', 'C', '', null, wild(r)]);
  }
  if (r.chance(0.1)) m.extra = wild(r);
  return m;
}

/**
 * A host case: the origin it comes from, the `origin=` the embed allows (null: only its own),
 * and the data (already cloned as postMessage would), or a description of why it cannot be
 * posted at all.
 */
export function hostCase(r) {
  const allowed = r.chance(0.7) ? ORIGIN : null;
  const origin = r.chance(0.8)
    ? (allowed ?? 'http://127.0.0.1:5173')
    : r.pick([ORIGIN, 'null', '', 'https://evil.example']);
  const raw = r.chance(0.8) ? command(r) : wild(r);
  try {
    return { origin, allowed, data: structuredClone(raw), cloned: true };
  } catch (e) {
    return { origin, allowed, data: null, cloned: false, why: String(e?.message ?? e) };
  }
}

export const OWN_ORIGIN = 'http://127.0.0.1:5173';
