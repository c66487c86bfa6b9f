#!/usr/bin/env node
// Fuzzes the real WASM build (the `--target web` package, loaded the way the CLI loads it, by
// web/cli/wasm.mjs) with generated scenarios, settings and mangled scenario files, including
// 512-CPU and never-ending runs that must stop at their budget. A worker thread runs the cases
// while this thread watches the clock: a case that does not answer within --hang-ms (ten times
// that for a big case) is a hang (the worker is replaced); a WebAssembly.RuntimeError is a trap
// (the instance is replaced).
// Prints cases tried, outcomes, traps, hangs, max memory and speed.
// Input classes (--class): scenarios (the above), recordings (kernel recordings, damaged, through
// the importer's parser that `tlbscope import` uses), links (query strings through the page's
// URL state decoder, with lz-string `src` texts), png and svg (pictures dropped on the page,
// through its reader of the state link they carry), host (an embed's host messages, through
// its reader of them), or all six in turn (the default). An exception where the page's code
// promises an answer, or a whole file whose link does not read back, is a finding.
//
//   npm run fuzz -- [--class scenarios|recordings|links|png|svg|host|all] [--cases N] [--seed S]
//                   [--hang-ms MS] [--seconds T]   # stop after T seconds (--cases: the most)
//   npm run fuzz -- --class C --seed S --show I   # print case I (to reproduce a finding)
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { hostCase, OWN_ORIGIN } from './fuzz/host.mjs';
import { linkCase } from './fuzz/links.mjs';
import { DROP_HERE, pngCase, svgCase } from './fuzz/pictures.mjs';
import { recordingCase } from './fuzz/recordings.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const repo = resolve(fileURLToPath(import.meta.url), '../..');
const SCENARIO_DIR = resolve(repo, 'content/scenarios');
const SCENARIOS = readdirSync(SCENARIO_DIR)
  .filter((f) => f.endsWith('.toml'))
  .sort()
  .map((f) => ({ id: f.slice(0, -5), text: readFileSync(resolve(SCENARIO_DIR, f), 'utf8') }));

// ---- case generation: a pure function of (seed, index), so any case can be replayed ----

/** mulberry32: small, fast, good enough to pick fuzz inputs. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  return { next, int, pick, chance: (p) => next() < p };
}

const KEYS = [
  'cpus',
  'machine',
  'tlb_entries',
  'tlb_ways',
  'tlb_index',
  'stack_offset',
  'max_time_ns',
  'max_events',
  'max_memory_mb',
  'flush_info',
  'preempt',
  'pcid',
  'wait_mask',
  'plus_one_rule',
  'lazy_freed_tables',
  'ceiling',
  'threads',
  'busy_threads',
  'lazy_cpus',
  'flushes',
  'pages',
  'initiator',
  'period_ns',
  'freed_tables',
  'irqs_off_probability',
  'irqs_off_gap_ns',
  'irqs_off_dist',
  'irqs_off_mean_ns',
  'irqs_off_max_ns',
  'wakeup_period_ns',
  'wakeup_cpu',
  'wakeup_work_ns',
  'mm_pages',
  'broadcast_skip',
  'dsb_before_dec',
  'skip_rule',
  'cpu_id',
  'max_dvm_ops',
  'asid_bits',
  'op',
  'processes',
  'hot_pages',
  'pti',
  'pti_user_flush',
  'invlpgb',
  'global_asid',
  'asid_transition',
  'tlbsync_pinned',
  'kernel',
  'costs.invlpgb_count_max',
  'costs.flush_call_ns',
  'costs.pti_cr3_ns',
  'arch',
  'title',
  'costs.ipi_delivery_ns',
  'costs.invlpg_ns',
  'costs.dvm_op_ns',
  'costs.nonsense',
  'machine.cpus',
  'design.pcid',
  'workload.flushes',
  'bogus',
  'design.x',
  'a.b.c',
];
const WORDS = [
  'percpu',
  'stack',
  'stack_unaligned',
  'pinned',
  'preemptible_wait',
  'on',
  'off',
  'task',
  'ipi',
  'skip',
  'exp',
  'pareto',
  'uniform',
  'invpcid',
  'deferred',
  'none',
  'first_flush',
  '4.13',
  '7.3',
  'sampled',
  'skylake-desktop-4',
  'skylake-sp-56',
  'zen3-epyc-7763-128',
  'hash',
  'xor7',
  'generic-x86',
  'icelake-8336c-128',
  'skylake-laptop-kvm',
  'generic-arm64',
  'ampere-32',
  'x86',
  'arm64',
  'active_mm',
  'mm_users',
  'thread_info',
  'madvise',
  'munmap',
  'mprotect',
  'cow',
  'true',
  'false',
  '',
  'NaN',
  'inf',
  '-inf',
  '1e309',
  '0x10',
  '"quoted"',
  '[1,2]',
  '{a=1}',
  '=',
  ';',
  '\u00e9',
  '\u0000',
];
const OPS = [
  'touch',
  'madvise',
  'munmap',
  'mprotect',
  'cow',
  'spin',
  'cli',
  'sti',
  'irqsoff',
  'maybe_irqsoff',
  'sleep',
  'at',
  'pace',
  'speculate',
  'migrate',
  'yield',
  'cpuid',
  'this_cpu_inc',
  'frobnicate',
];

/** Values each key accepts, to keep most cases valid enough to run. */
const VALID = {
  cpus: (r) => r.int(1, 64),
  threads: (r) => r.int(0, 8),
  flushes: (r) => r.int(0, 200),
  pages: (r) => r.int(1, 64),
  lazy_cpus: (r) => r.int(0, 4),
  busy_threads: (r) => r.int(0, 4),
  initiator: (r) => r.int(0, 3),
  period_ns: (r) => r.int(0, 50000),
  irqs_off_probability: (r) => r.next().toFixed(3),
  irqs_off_gap_ns: (r) => r.int(0, 100000),
  irqs_off_max_ns: (r) => r.int(0, 100000),
  wakeup_period_ns: (r) => r.int(0, 100000),
  max_time_ns: (r) => r.int(1000, 1e8),
  tlb_entries: (r) => r.pick([64, 128, 1024, 1536, 2048]),
  asid_bits: (r) => r.int(4, 16),
  ceiling: (r) => r.int(0, 64),
  mm_pages: (r) => r.pick([64, 256, 4096]),
  flush_info: (r) => r.pick(['percpu', 'stack', 'stack_unaligned']),
  preempt: (r) => r.pick(['pinned', 'preemptible_wait']),
  pcid: (r) => r.pick(['on', 'off']),
  wait_mask: (r) => r.pick(['task', 'percpu']),
  broadcast_skip: (r) => r.pick(['on', 'off']),
  dsb_before_dec: (r) => r.pick(['on', 'off']),
  cpu_id: (r) => r.pick(['percpu', 'thread_info']),
  machine: (r) =>
    r.pick([
      'generic-x86',
      'icelake-8336c-128',
      'skylake-laptop-kvm',
      'generic-arm64',
      'ampere-32',
    ]),
  arch: (r) => r.pick(['x86', 'arm64']),
  processes: (r) => r.pick(['true', 'false']),
  op: (r) => r.pick(['madvise', 'munmap', 'mprotect', 'cow']),
  irqs_off_dist: (r) => r.pick(['exp', 'pareto', 'uniform']),
};

/** `key=value`: mostly a value the key accepts, sometimes anything. */
const ONLY = {
  x86: ['broadcast_skip', 'dsb_before_dec', 'cpu_id', 'asid_bits'],
  arm64: ['flush_info', 'preempt', 'pcid', 'wait_mask', 'ceiling'],
};

function setting(r, arch = 'x86') {
  if (r.chance(0.9)) {
    const key = r.pick(Object.keys(VALID).filter((k) => !ONLY[arch].includes(k) && k !== 'arch'));
    return `${key}=${r.chance(0.9) ? VALID[key](r) : value(r)}`;
  }
  return `${r.pick(KEYS)}=${value(r)}`;
}

function value(r) {
  switch (r.int(0, 7)) {
    case 0:
      return String(r.int(0, 600));
    case 1:
      return String(r.pick([0, 1, -1, 2, 511, 512, 513, 65536, 2 ** 31, 2 ** 53, -(2 ** 63)]));
    case 2:
      return String(r.int(-1e9, 1e12));
    case 3:
      return String(r.next());
    case 4:
      return String((r.next() - 0.5) * 10 ** r.int(0, 20));
    default:
      return r.pick(WORDS);
  }
}

function duration(r) {
  return `${r.int(0, 5000)}${r.chance(0.97) ? r.pick(['', 'ns', 'us']) : r.pick(['ms', 's', 'x'])}`;
}

/** Arguments each op takes (min, max); the fuzzer strays outside now and then. */
const ARGS = {
  touch: [1, 2],
  madvise: [1, 2],
  munmap: [1, 2],
  mprotect: [1, 2],
  cow: [1, 2],
  spin: [0, 1],
  irqsoff: [1, 1],
  sleep: [1, 1],
  at: [1, 1],
  pace: [1, 1],
  migrate: [1, 1],
  cpuid: [1, 1],
};

function program(r) {
  const n = r.int(1, 8);
  const ops = [];
  for (let i = 0; i < n; i++) {
    const op = r.chance(0.97) ? r.pick(OPS.slice(0, -1)) : r.pick(OPS);
    const [lo, hi] = r.chance(0.95) ? (ARGS[op] ?? [0, 0]) : [0, 3];
    const timed = ['spin', 'irqsoff', 'sleep', 'at', 'pace'].includes(op);
    const args = [];
    for (let k = r.int(lo, hi); k > 0; k--)
      args.push(timed ? duration(r) : String(r.chance(0.95) ? r.int(0, 30) : r.int(0, 2 ** 32)));
    ops.push([op, ...args].join(' '));
  }
  return ops.join('; ');
}

/** A scenario file written from scratch: sections, tasks and steps with plausible and wild values. */
function generatedScenario(r, big) {
  const arm = r.chance(0.35);
  const lines = [`title = "fuzz"`];
  if (arm) lines.push('arch = "arm64"');
  const cpus = big ? r.pick([256, 384, 512]) : r.chance(0.9) ? r.int(1, 16) : r.int(1, 600);
  lines.push('[machine]', `cpus = ${cpus}`);
  if (r.chance(0.2)) lines.push(`tlb_entries = ${r.pick([8, 64, 1024, 8192, 65536, 7])}`);
  if (arm && r.chance(0.3))
    lines.push(`asid_bits = ${r.chance(0.9) ? r.int(10, 16) : r.int(1, 17)}`);
  lines.push('[design]');
  if (arm) {
    if (r.chance(0.5))
      lines.push(`broadcast_skip = "${r.pick(['on', 'off', 'on', 'off', 'maybe'])}"`);
    if (r.chance(0.3)) lines.push(`dsb_before_dec = "${r.pick(['on', 'off'])}"`);
  } else {
    if (r.chance(0.5))
      lines.push(`flush_info = "${r.pick(['percpu', 'stack', 'stack_unaligned'])}"`);
    if (r.chance(0.5)) lines.push(`preempt = "${r.pick(['pinned', 'preemptible_wait'])}"`);
    if (r.chance(0.3)) lines.push(`pcid = "${r.pick(['on', 'off'])}"`);
  }
  lines.push('[workload]');
  const threads = big ? r.int(1, cpus) : r.int(0, Math.min(cpus, 8));
  lines.push(`threads = ${threads}`);
  lines.push(`flushes = ${big ? r.pick([1000, 100000, 10000000]) : r.int(0, 50)}`);
  lines.push(`pages = ${r.chance(0.95) ? r.int(1, 64) : r.int(0, 70000)}`);
  if (r.chance(0.3)) lines.push(`processes = ${r.chance(0.5)}`);
  if (r.chance(0.3)) lines.push(`lazy_cpus = ${r.int(0, 4)}`);
  if (r.chance(0.3)) lines.push(`busy_threads = ${r.int(0, 4)}`);
  if (r.chance(0.2)) lines.push(`irqs_off_probability = ${r.next()}`);
  if (r.chance(0.2)) lines.push(`period_ns = ${r.int(0, 100000)}`);
  if (r.chance(0.2)) lines.push(`mm_pages = ${r.pick([1, 64, 4096, 1 << 20])}`);
  for (let t = r.int(0, big ? 8 : 4); t > 0; t--) {
    lines.push(
      '[[tasks]]',
      `cpu = ${r.int(0, r.chance(0.95) ? cpus - 1 : cpus)}`,
      `program = "${program(r)}"`,
    );
    if (r.chance(0.5)) lines.push(`repeat = ${r.chance(0.3) ? 0 : r.int(1, 50)}`);
    if (r.chance(0.3)) lines.push(`mm = ${r.int(0, 5)}`);
    if (r.chance(0.2))
      lines.push(
        `cpus = [${Array.from({ length: r.int(0, 3) }, () => r.int(0, cpus)).join(', ')}]`,
      );
    if (r.chance(0.2)) lines.push(`prio = ${r.int(0, 99)}`);
    if (r.chance(0.2)) lines.push(`start_ns = ${r.int(0, 1e6)}`);
    if (r.chance(0.1)) lines.push(`daemon = ${r.chance(0.5)}`);
  }
  if (r.chance(0.1)) {
    lines.push('[[steps]]', 'title = "s"', 'text = "t"');
    if (r.chance(0.5)) lines.push(`window = [${r.int(0, 1e6)}, ${r.int(0, 1e9)}]`);
    if (r.chance(0.5)) lines.push(`set = ["${r.pick(KEYS)}=${value(r)}"]`);
  }
  if (r.chance(0.1))
    lines.push(`${r.pick(['machine', 'workload', 'design'])}.${r.pick(KEYS)} = ${value(r)}`);
  return lines.join('\n');
}

/** A bundled scenario, damaged: lines dropped, duplicated or cut, bytes inserted. */
function mangled(r, text) {
  let t = text;
  for (let k = r.int(1, 4); k > 0; k--) {
    const at = r.int(0, t.length);
    switch (r.int(0, 5)) {
      case 0:
        t = t.slice(0, at);
        break;
      case 1:
        t = t.slice(0, at) + t.slice(at + r.int(1, 80));
        break;
      case 2:
        t =
          t.slice(0, at) +
          r.pick(['[', ']', '"', '"""', '=', '\n', '[[', '{', '#', '\\', '\u0000', '\ud800']) +
          t.slice(at);
        break;
      case 3: {
        const lines = t.split('\n');
        const i = r.int(0, lines.length - 1);
        lines.splice(i, 0, lines[i]);
        t = lines.join('\n');
        break;
      }
      case 4:
        t = t.slice(0, at) + '['.repeat(r.int(1, 5000)) + t.slice(at);
        break;
      default:
        t = t.slice(0, at) + r.pick(['18446744073709551616', '-1', '1e309', 'nan']) + t.slice(at);
    }
  }
  return t;
}

export const CLASSES = ['scenarios', 'recordings', 'links', 'png', 'svg', 'host'];
/** Classes that run the web app's TypeScript, not the WASM build. */
const WEB = {
  recording: runRecording,
  link: runLink,
  png: runPicture,
  svg: runPicture,
  host: runHost,
};

/** The class of case `i`: `cls` itself, or with `all` each in turn. */
export function classOf(cls, i) {
  return cls === 'all' ? CLASSES[i % CLASSES.length] : cls;
}

/**
 * Case `i` of `seed` in class `cls`. A scenario case: text, overrides, simulator seed and its
 * kind; a recording: its name, text and the chunk size it is fed in; a link: its query string.
 */
export function makeCase(seed, i, cls = 'scenarios') {
  const r = rng((seed * 0x9e3779b1) ^ (i * 0x85ebca6b) ^ 0x1234567);
  const c = classOf(cls, i);
  if (c === 'recordings') return { kind: 'recording', ...recordingCase(r) };
  if (c === 'links') return { kind: 'link', search: linkCase(r, SCENARIOS) };
  if (c === 'png') return { kind: 'png', ...pngCase(r, SCENARIOS) };
  if (c === 'svg') return { kind: 'svg', ...svgCase(r, SCENARIOS) };
  if (c === 'host') return { kind: 'host', ...hostCase(r) };
  return scenarioCase(r, i);
}

function scenarioCase(r, i) {
  const big = i % 500 === 499;
  const roll = r.next();
  let kind;
  let text;
  const overrides = [];
  if (big) {
    kind = 'big';
    text = r.chance(0.5) ? generatedScenario(r, true) : r.pick(SCENARIOS).text;
    if (r.chance(0.5))
      overrides.push(
        'cpus=512',
        `threads=${r.int(1, 512)}`,
        `flushes=${r.pick([100000, 10000000])}`,
      );
    if (r.chance(0.3)) overrides.push('max_events=100000000', 'max_time_ns=1000000000000');
  } else if (roll < 0.4) {
    kind = 'settings';
    text = r.pick(SCENARIOS).text;
    const arch = /^arch\s*=\s*"arm64"/m.test(text) ? 'arm64' : 'x86';
    for (let k = r.int(0, 4); k > 0; k--) overrides.push(setting(r, arch));
    if (r.chance(0.05)) overrides.push(r.pick(['cpus', '=', 'x=', '==', 'cpus==4']));
  } else if (roll < 0.8) {
    kind = 'generated';
    text = generatedScenario(r, false);
    const arch = text.includes('arch = "arm64"') ? 'arm64' : 'x86';
    for (let k = r.int(0, 2); k > 0; k--) overrides.push(setting(r, arch));
  } else {
    kind = 'mangled';
    text = mangled(r, r.pick(SCENARIOS).text);
  }
  // Keep ordinary cases small (the budget is what is under test, not throughput); big cases
  // keep the default budget or a large one.
  if (!big) overrides.push(`max_events=${r.int(1000, 300000)}`, `max_memory_mb=${r.int(1, 16)}`);
  else if (r.chance(0.5)) overrides.push(`max_memory_mb=${r.pick([32, 64, 128])}`);
  return { kind, text, overrides, seed: r.int(0, 2 ** 31) };
}

// ---- the worker: runs cases on the CLI's WASM build ----

/** The web app's recording parser and URL decoder, loaded (through the CLI's loader) once. */
let web = null;
async function webModules() {
  if (!web) {
    const { register } = await import('node:module');
    register('../web/cli/tsLoader.mjs', import.meta.url);
    register('./fuzz/loader.mjs', import.meta.url);
    // The page's SVG reader parses the <metadata> with DOMParser, which Node lacks.
    if (!globalThis.DOMParser) {
      const { JSDOM } = await import('jsdom');
      globalThis.DOMParser = new JSDOM('').window.DOMParser;
    }
    const mods = await Promise.all([
      import('../web/src/recording/parse.ts'),
      import('../web/src/app/url.ts'),
      import('../web/src/app/dropLink.ts'),
      import('../web/src/app/embedApi.ts'),
      import('../web/src/app/linkCap.ts'),
      import('../web/src/viz/exportSvg.ts'),
      import('../web/src/viz/pngText.ts'),
      import('../web/src/viz/exportTimeline.ts'),
      import('../web/src/app/settings.ts'),
    ]);
    web = Object.assign({}, ...mods);
  }
  return web;
}

/** A recording case: the parser reads it or refuses it with a message, and never throws else. */
function runRecording(m, c) {
  const parser = new m.RecordingParser(c.name);
  try {
    for (let k = 0; k < c.text.length; k += c.chunk) parser.push(c.text.slice(k, k + c.chunk));
    const rec = parser.finish();
    if (!(rec.issueCount >= rec.issues.length) || typeof rec.summary !== 'object')
      return { outcome: 'js-error', detail: 'a recording without its summary or issues' };
    return { outcome: 'ok', detail: '' };
  } catch (e) {
    if (e instanceof m.RecordingError && String(e.message).length > 0)
      return { outcome: 'recording-error', detail: '' };
    return { outcome: 'js-error', detail: String(e?.stack ?? e) };
  }
}

/**
 * A link case: parseUrl never throws, and the link the page writes for the state it decoded is
 * understood whole and written the same way again.
 */
function runLink(m, c) {
  try {
    const p = m.parseUrl(c.search);
    if (!Array.isArray(p.ignored)) return { outcome: 'js-error', detail: 'no ignored list' };
    const again = m.parseUrl(m.writeUrl(p.url, p.view));
    if (again.ignored.length > 0)
      return { outcome: 'round-trip', detail: `its own link ignored: ${again.ignored[0]}` };
    if (m.writeUrl(again.url, again.view) !== m.writeUrl(p.url, p.view))
      return { outcome: 'round-trip', detail: 'its own link is written differently again' };
    return { outcome: p.ignored.length > 0 ? 'link-ignored' : 'ok', detail: '' };
  } catch (e) {
    return { outcome: 'js-error', detail: String(e?.stack ?? e) };
  }
}

/** How long a message the page shows may be: it quotes at most a few hundred characters. */
const MESSAGE_MAX = 2000;

/**
 * A dropped picture: the page's reader answers with a view to open or a message, never throws;
 * a whole file tlbscope could have written gives back its link.
 */
function runPicture(m, c) {
  const png = c.kind === 'png';
  try {
    // Of an SVG the page reads only the head.
    const bytes = png ? c.bytes : c.bytes.subarray(0, m.svgHeadBytes(m.LINK_CAP));
    const to = m.dropAnswer(c.name, png, bytes, c.size, DROP_HERE);
    if ('message' in to && !(to.message.length > 0 && to.message.length <= MESSAGE_MAX))
      return { outcome: 'bad-error', detail: `a message of ${to.message.length} characters` };
    if (c.expect !== null) {
      const found = png
        ? m.readPngText(bytes, m.PNG_LINK_KEY, m.LINK_CAP)
        : m.svgStateLink(bytes, m.LINK_CAP, c.size);
      const got = found && ('text' in found ? found.text : found.link);
      const ok =
        c.expect === '' && !png
          ? found === null
          : got === c.expect || (found && 'tooLarge' in found && c.expect.length > m.LINK_CAP / 2);
      if (!ok)
        return {
          outcome: 'round-trip',
          detail: `its link ${JSON.stringify(c.expect.slice(0, 80))} read back as ${JSON.stringify(found).slice(0, 200)}`,
        };
    }
    if ('href' in to) return { outcome: 'opened', detail: '' };
    const kind = /no tlbscope state link/.test(to.message)
      ? 'no-link'
      : /over the .* a tlbscope link may have/.test(to.message)
        ? 'too-large'
        : 'refused';
    return { outcome: kind, detail: '' };
  } catch (e) {
    return { outcome: 'js-error', detail: String(e?.stack ?? e) };
  }
}

/**
 * A host message: read without a throw (its catch-all answer counts as one), any error short,
 * and a setting it accepts written into a link that the page reads back whole.
 */
function runHost(m, c) {
  if (!c.cloned) return { outcome: 'not-postable', detail: '' };
  try {
    const read = m.readHostMessage(c.origin, c.data, c.allowed, OWN_ORIGIN);
    if (read.kind === 'error') {
      if (/^unreadable message/.test(read.message))
        return { outcome: 'js-error', detail: read.message };
      if (!(read.message.length > 0 && read.message.length <= MESSAGE_MAX))
        return { outcome: 'bad-error', detail: `an error of ${read.message.length} characters` };
    }
    if (read.kind === 'command' && read.command.command === 'set') {
      const { key, value } = read.command;
      const p = m.parseUrl('?scenario=x86-lazy-tlb&embed=1');
      const url = { ...p.url, overrides: m.withValue(p.url.overrides, key, value) };
      const again = m.parseUrl(m.writeUrl(url, p.view));
      if (again.ignored.length > 0)
        return {
          outcome: 'round-trip',
          detail: `set ${key}=${value.slice(0, 80)} accepted, its link ignored: ${again.ignored[0]}`,
        };
    }
    return {
      outcome: read.kind === 'command' ? `command-${read.command.command}` : read.kind,
      detail: '',
    };
  } catch (e) {
    return { outcome: 'js-error', detail: String(e?.stack ?? e) };
  }
}

async function workerMain() {
  const { loadWasm, wasmMemoryBytes } = await import('../web/cli/wasm.mjs');
  const { seed, cls } = workerData;
  let wasm = cls === 'scenarios' || cls === 'all' ? await loadWasm({ fresh: true }) : null;
  if (cls !== 'scenarios') await webModules();
  parentPort.on('message', async ({ i }) => {
    const c = makeCase(seed, i, cls);
    const t0 = performance.now();
    if (c.kind in WEB) {
      const m = await webModules();
      const { outcome, detail } = WEB[c.kind](m, c);
      parentPort.postMessage({ i, kind: c.kind, outcome, detail, ms: performance.now() - t0 });
      return;
    }
    let outcome;
    let detail = '';
    let sim = null;
    try {
      sim = new wasm.Simulator(c.text, c.overrides, c.seed);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        outcome = 'trap';
        detail = e.message;
      } else {
        outcome = 'scenario-error';
        // Every refusal must say what is wrong: a field path or a located message.
        if (!(typeof e === 'object' && e && 'message' in e && String(e.message).length > 0)) {
          outcome = 'bad-error';
          detail = String(e);
        }
      }
    }
    if (sim) {
      try {
        while (!sim.runFor(100_000)) {
          /* budgets bound the run; the main thread's clock catches a hang */
        }
        JSON.parse(sim.summaryJson());
        if (i % 7 === 0) {
          const n = sim.time().length;
          if (n !== sim.parent().length) throw new Error('columns of different lengths');
          JSON.parse(sim.snapshotJson(sim.nowNs / 2));
          JSON.parse(sim.stepsJson());
        }
        outcome = sim.budgetError ? 'budget-stop' : 'ok';
        if (sim.budgetError && !/machine\.max_(events|memory_mb)/.test(sim.budgetError)) {
          outcome = 'bad-error';
          detail = sim.budgetError;
        }
        sim.free();
      } catch (e) {
        outcome = e instanceof WebAssembly.RuntimeError ? 'trap' : 'js-error';
        detail = String(e?.message ?? e);
        if (outcome !== 'trap') sim.free();
      }
    }
    if (outcome === 'trap') wasm = await loadWasm({ fresh: true });
    parentPort.postMessage({
      i,
      kind: c.kind,
      outcome,
      detail,
      ms: performance.now() - t0,
      rss: process.memoryUsage().rss,
      wasmBytes: wasmMemoryBytes(),
    });
  });
  parentPort.postMessage({ ready: true });
}

// ---- the driver ----

/**
 * Runs `cases` cases of `seed` and returns the tally. Cases go one at a time to a worker; one
 * that has not answered after `hangMs` is a hang, and the worker is replaced.
 */
export async function fuzz({
  cases = 1000,
  seed = 1,
  cls = 'scenarios',
  hangMs = 30_000,
  seconds = Infinity,
  first = 0,
  onProgress,
} = {}) {
  const stats = {
    seed,
    cls,
    cases: 0,
    kinds: {},
    outcomes: {},
    traps: [],
    hangs: [],
    failures: [],
    maxRssMb: 0,
    maxWasmMb: 0,
    slowestMs: 0,
    seconds: 0,
  };
  const t0 = performance.now();
  let worker = null;
  let ready = null;
  const start = () => {
    worker = new Worker(fileURLToPath(import.meta.url), { workerData: { seed, cls } });
    ready = new Promise((res, rej) => {
      worker.once('message', res);
      worker.once('error', rej);
    });
  };
  start();
  await ready;
  for (let i = first; i < first + cases; i++) {
    if ((performance.now() - t0) / 1000 > seconds) break;
    const reply = await new Promise((res) => {
      // A big case (512 CPUs at the default memory budget) may take tens of seconds of CPU:
      // it gets ten times as long before it counts as a hang.
      const big = classOf(cls, i) === 'scenarios' && i % 500 === 499;
      const limit = big ? hangMs * 10 : hangMs;
      const timer = setTimeout(() => res({ i, outcome: 'hang' }), limit);
      const done = (m) => {
        clearTimeout(timer);
        worker.off('error', failed);
        res(m);
      };
      const failed = (e) => {
        clearTimeout(timer);
        worker.off('message', done);
        res({ i, outcome: 'crash', detail: String(e?.message ?? e) });
      };
      worker.once('message', done);
      worker.once('error', failed);
      worker.postMessage({ i });
    });
    const c = reply.kind ?? makeCase(seed, i, cls).kind;
    stats.cases++;
    stats.kinds[c] = (stats.kinds[c] ?? 0) + 1;
    stats.outcomes[reply.outcome] = (stats.outcomes[reply.outcome] ?? 0) + 1;
    if (reply.outcome === 'trap') stats.traps.push({ i, detail: reply.detail });
    if (reply.outcome === 'hang' || reply.outcome === 'crash') {
      stats.hangs.push({ i, outcome: reply.outcome, detail: reply.detail ?? '' });
      worker.removeAllListeners();
      await worker.terminate();
      start();
      await ready;
    }
    if (['js-error', 'bad-error', 'round-trip'].includes(reply.outcome))
      stats.failures.push({ i, outcome: reply.outcome, detail: reply.detail });
    if (reply.rss) stats.maxRssMb = Math.max(stats.maxRssMb, reply.rss / 2 ** 20);
    if (reply.wasmBytes) stats.maxWasmMb = Math.max(stats.maxWasmMb, reply.wasmBytes / 2 ** 20);
    if (reply.ms > stats.slowestMs) {
      stats.slowestMs = reply.ms;
      stats.slowest = i;
    }
    onProgress?.(stats, i);
  }
  await worker.terminate();
  stats.seconds = (performance.now() - t0) / 1000;
  return stats;
}

export function formatStats(s) {
  const counts = (o) =>
    Object.entries(o)
      .sort()
      .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
      .join(', ');
  return [
    `class ${s.cls}, seed ${s.seed}: ${s.cases.toLocaleString('en-US')} cases in ${s.seconds.toFixed(1)} s (${(s.cases / Math.max(s.seconds, 1e-9)).toFixed(0)} cases/s)`,
    `  kinds:    ${counts(s.kinds)}`,
    `  outcomes: ${counts(s.outcomes)}`,
    `  traps ${s.traps.length}, hangs ${s.hangs.length}, other failures ${s.failures.length}`,
    `  max memory: process RSS ${s.maxRssMb.toFixed(0)} MB, WASM linear memory ${s.maxWasmMb.toFixed(0)} MB; slowest case ${(s.slowestMs / 1000).toFixed(2)} s (case ${s.slowest})`,
    ...[...s.traps, ...s.hangs, ...s.failures]
      .slice(0, 20)
      .map(
        (f) =>
          `  case ${f.i}: ${f.outcome ?? 'trap'} ${f.detail ?? ''} (npm run fuzz -- --class ${s.cls} --seed ${s.seed} --show ${f.i})`,
      ),
  ].join('\n');
}

async function main(argv) {
  const arg = (name, dflt) => {
    const k = argv.indexOf(`--${name}`);
    return k >= 0 ? Number(argv[k + 1]) : dflt;
  };
  const seed = arg('seed', 1);
  const show = arg('show', -1);
  const k = argv.indexOf('--class');
  const cls = k >= 0 ? argv[k + 1] : 'all';
  if (![...CLASSES, 'all'].includes(cls)) {
    process.stderr.write(`--class ${cls}: expected ${CLASSES.join(', ')} or all\n`);
    return 2;
  }
  if (show >= 0) {
    const c = makeCase(seed, show, cls);
    if (c.kind === 'link') process.stdout.write(`# link\n${c.search}\n`);
    else if (c.kind === 'png' || c.kind === 'svg')
      process.stdout.write(
        `# ${c.kind} ${JSON.stringify(c.name)}, ${c.bytes.length} bytes (size ${c.size}), base64:\n${Buffer.from(c.bytes).toString('base64')}\n`,
      );
    else if (c.kind === 'host')
      process.stdout.write(
        `# host message from ${c.origin} (allowed ${c.allowed})${c.cloned ? '' : `, not postable: ${c.why}`}\n${inspect(c.data, { depth: 4, maxArrayLength: 20, maxStringLength: 200 })}\n`,
      );
    else if (c.kind === 'recording')
      process.stdout.write(
        `# recording ${JSON.stringify(c.name)}, chunks of ${c.chunk}\n${c.text}\n`,
      );
    else
      process.stdout.write(
        `# kind ${c.kind}, seed ${c.seed}\n# --set ${c.overrides.join(' --set ')}\n${c.text}\n`,
      );
    return 0;
  }
  const cases = arg('cases', 20_000);
  const s = await fuzz({
    cases,
    seed,
    cls,
    hangMs: arg('hang-ms', 30_000),
    seconds: arg('seconds', Infinity),
    first: arg('first', 0),
    onProgress: (st) => {
      if (st.cases % 20000 === 0)
        process.stderr.write(
          `… ${st.cases.toLocaleString('en-US')} cases, ${JSON.stringify(st.outcomes)}\n`,
        );
    },
  });
  process.stdout.write(`${formatStats(s)}\n`);
  return s.traps.length + s.hangs.length + s.failures.length > 0 ? 1 : 0;
}

if (!isMainThread) await workerMain();
else if (process.argv[1] === fileURLToPath(import.meta.url))
  process.exitCode = await main(process.argv.slice(2));
