// The simulator model's version, carried in every link the page makes (`model=`), and what
// each version changed. A link keeps its settings, seed and window, but the numbers it showed
// come from the model of its day: opened under a later model it may show other waits and
// counts, so the page says what changed instead of showing them silently.
//
// A version is a state of the model's traces: `digestsSha256` is the SHA-256 of
// sim-wasm/tests/fixtures/trace_digests.txt, the trace hashes the Rust tests hold every shipped
// scenario to. modelVersion.test.ts fails when that file no longer hashes to the current
// version's value, so a model change cannot ship without a new entry here. A digests file that
// only gained lines (a new scenario recorded, every old trace the same) is the same model: the
// current entry takes its new hash. A changed or removed line is a new version.

import type { UrlState } from './url';

/** The parts of the page a model change can move. */
export type ModelView = 'guide' | 'explorer' | 'compare' | 'check' | 'data';

export interface ModelChange {
  version: number;
  /** SHA-256 of the trace digests file at this version. */
  digestsSha256: string;
  /** What a reader of a link from the version before sees differently, in a sentence or two. */
  changed: string;
  views: readonly ModelView[];
}

const ALL: readonly ModelView[] = ['guide', 'explorer', 'compare', 'check', 'data'];

/** Oldest first; the last entry is the current model. */
export const MODEL_CHANGES: readonly ModelChange[] = [
  {
    version: 1,
    digestsSha256: 'f0687d4cb5f81dee3732de2a406927adeb6f48532c1edef538d76af141e4eb0d',
    changed: 'The first versioned model.',
    views: ALL,
  },
  {
    version: 2,
    digestsSha256: '2192b8db767a96e79db718eef89d844bb3b9bc968a6a3f3b9edf06a5b411395c',
    changed:
      'x86 flushes now pay for the flush instructions themselves (INVLPG, INVPCID, CR3 writes), ' +
      'so x86 runs have more events and longer flushes; kernel=, PTI, INVLPGB and the shared ' +
      'lock queues were added.',
    views: ALL,
  },
  {
    version: 3,
    digestsSha256: 'c929ea6bfa548aaafb67fa30210664aec34a07a68782eb42403ed264427227be',
    changed:
      'will-it-scale tlb_flush1 and tlb_flush2: file-backed pages cost a page-cache lookup and a ' +
      'folio copy, anonymous pages a zero-fill (copy-on-write of the zero page no longer copies).',
    views: ['explorer', 'compare', 'data'],
  },
  {
    version: 4,
    digestsSha256: '9f3f2860fc8fcd7abf0981ed88acf21ae3ad96303dd7c1b017c2961c57d05ea9',
    changed:
      'x86 switch_mm is split at its store buffer (switch_mm_barrier=full|none): each context ' +
      'switch is one event more, so x86 timelines, event numbers and interleaving checks shift.',
    views: ALL,
  },
  {
    version: 5,
    digestsSha256: '1fd445f2d3f1d9657c28a4ed37f47b6aad9f6fc42a1e6afc95d5137c49609e33',
    changed:
      'x86: a remote flush_tlb_func() that reads tlb_gen pays for the cache line when another ' +
      'CPU changed it, so multi-CPU x86 flushes take a little longer; kernels before 5.18 ' +
      'read it on every call (tlb_gen_read=always, before aa44284960d5).',
    views: ALL,
  },
  {
    version: 6,
    digestsSha256: '07e90a81f172bf728eff50d2a29313e912cf74c73ebe4bc3f5d029138ab601e4',
    changed:
      'x86: each cross-CPU flush request pays for the cache lines it moves between sender and ' +
      "target (the csd and the target's queue head), so flushes with many targets take longer " +
      'and throughput stops scaling with threads; icelake-8336c-128 delivers IPIs in 675 ns.',
    views: ALL,
  },
  {
    version: 7,
    digestsSha256: '8490512b07ee195d34df5814c282abff942e562f3083a7cc974f39f426778d96',
    changed:
      "x86: moves of an mm's tlb_gen cache line out of the one cache holding it modified are " +
      "served one at a time, so concurrent flushes of one mm wait for each other's increments " +
      'and for the first read after each; multi-thread x86 flushes take a little longer.',
    views: ALL,
  },
];

export const MODEL_VERSION = MODEL_CHANGES[MODEL_CHANGES.length - 1].version;

/** What the page tells the reader of a link made with another model version. */
export interface ModelNotice {
  /** The version the link was made with. */
  from: number;
  to: number;
  /** The link comes from a newer site than this one: nothing here says what it changed. */
  newer: boolean;
  /** The changes since `from` that move this view, oldest first. */
  changes: readonly Pick<ModelChange, 'version' | 'changed'>[];
  /** Changes since `from` that move other views only. */
  elsewhere: number;
}

/** The notice for a link made with model `from` opened on `view`; null when there is none. */
export function modelNotice(
  from: number | null | undefined,
  view: ModelView,
  changes: readonly ModelChange[] = MODEL_CHANGES,
): ModelNotice | null {
  const to = changes[changes.length - 1].version;
  if (from == null || from === to) return null;
  if (from > to) return { from, to, newer: true, changes: [], elsewhere: 0 };
  const since = changes.filter((c) => c.version > from);
  const here = since.filter((c) => c.views.includes(view));
  return {
    from,
    to,
    newer: false,
    changes: here.map(({ version, changed }) => ({ version, changed })),
    elsewhere: since.length - here.length,
  };
}

/**
 * A link's query string with the current model version added, first, so that the rest reads as
 * before (the bare landing page stays bare: it opens today's guide whatever the version).
 */
export function withModel(query: string): string {
  if (!query) return query;
  // The page's own queries (writeUrl's) have no model= and are already as URLSearchParams
  // writes them: prefixed as they are, a link of 128 KiB is not parsed and written once more.
  if (!/[?&]model=/.test(query)) return `?model=${MODEL_VERSION}&${query.replace(/^\?/, '')}`;
  const q = new URLSearchParams(query);
  q.delete('model');
  const rest = q.toString();
  return `?model=${MODEL_VERSION}${rest ? `&${rest}` : ''}`;
}

/** Which part of the page a link opens, as the changelog names them. */
export function modelViewOf(url: Pick<UrlState, 'view' | 'step' | 'compare' | 'check'>): ModelView {
  if (url.view === 'data') return 'data';
  if (url.view === 'home' || url.step !== null) return 'guide';
  if (url.check) return 'check';
  return url.compare ? 'compare' : 'explorer';
}
