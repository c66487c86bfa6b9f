import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { scenarioLink } from '../model/fitted';
import { checkAgainstRun, checkLink } from './linkCheck';
import { unpackSource } from './unpackSource';
import {
  formEncoded,
  NO_VIEW,
  parseUrl,
  readUrl,
  withSource,
  writeUrl,
  type UrlState,
  type ViewState,
} from './url';

const base: UrlState = {
  view: 'explore',
  step: null,
  scenario: 'x',
  custom: null,
  seed: 1,
  overrides: [],
  compare: false,
  overridesB: [],
  theme: null,
  talk: false,
  embed: false,
  origin: null,
  chart: null,
};

describe('url state', () => {
  it('round-trips scenario, seed, overrides and the B side of a comparison', () => {
    const s = {
      ...base,
      step: 3,
      scenario: 'x86-munmap-shootdown',
      seed: 42,
      overrides: ['cpus=8', 'flush_info=stack'],
      compare: true,
      overridesB: ['flush_info=percpu'],
    };
    expect(readUrl(writeUrl(s))).toEqual(s);
  });

  it('round-trips where the user looks: cursor, window, selected event and spacing', () => {
    const view: ViewState = {
      cursor: 1234.5,
      window: [1000, 25000.3],
      selected: 17,
      spacing: 'event',
    };
    const p = parseUrl(writeUrl(base, view));
    expect(p.view).toEqual(view);
    expect(p.ignored).toEqual([]);
  });

  it('carries the theme and the talk, embed and origin flags unchanged', () => {
    const s = {
      ...base,
      theme: 'dark' as const,
      talk: true,
      embed: true,
      origin: 'https://slides.example',
    };
    const q = writeUrl(s);
    expect(q).toContain('talk=1');
    expect(q).toContain('embed=1');
    expect(readUrl(q)).toEqual(s);
    expect(readUrl('?scenario=x&embed&talk')).toMatchObject({ embed: true, talk: true });
    expect(readUrl('?scenario=x&embed=0')).toMatchObject({ embed: false, talk: false });
    expect(readUrl(writeUrl({ ...base, view: 'home', talk: true }))).toMatchObject({
      view: 'home',
      talk: true,
    });
  });

  it('carries the rows above which an imported recording stays in its worker', () => {
    const s = { ...base, remoteAbove: 10_000 };
    expect(writeUrl(s)).toContain('remote=10000');
    expect(readUrl(writeUrl(s))).toEqual(s);
    expect(readUrl('?scenario=x')).not.toHaveProperty('remoteAbove');
    const bad = parseUrl('?scenario=x&remote=lots');
    expect(bad.url).not.toHaveProperty('remoteAbove');
    expect(bad.ignored).toEqual([
      'remote=lots: the rows above which a recording stays in its worker: 0 or more',
    ]);
  });

  it('packs the user’s own scenario text with lz-string and unpacks it', () => {
    const text = '[scenario]\ntitle = "mine"\n# ünïcode & = ?\n'.repeat(20);
    const s = { ...base, scenario: null, custom: { name: 'mine.toml', text } };
    const q = writeUrl(s);
    expect(q).toContain('src=');
    expect(q.length).toBeLessThan(text.length);
    expect(readUrl(q)).toEqual(s);
  });

  it('writes src= exactly as URLSearchParams would, after file=', () => {
    const text = '[scenario]\ntitle = "mine"\n# ünïcode & = ? ~!\n'.repeat(20);
    const s = { ...base, scenario: null, custom: { name: 'my file.toml', text }, seed: 3 };
    const src = compressToEncodedURIComponent(text);
    const q = new URLSearchParams({ file: 'my file.toml', src, seed: '3' });
    expect(writeUrl(s)).toBe(`?${q.toString()}`);
    const all = Array.from({ length: 0x3000 }, (_, i) => String.fromCharCode(i))
      .filter((c) => !/[\ud800-\udfff]/.test(c))
      .join('');
    expect(formEncoded(all)).toBe(new URLSearchParams({ v: all }).toString().slice(2));
  });

  it('leaves B out of the URL when not comparing, and the view at its defaults', () => {
    expect(writeUrl({ ...base, overridesB: ['pcid=off'] }, NO_VIEW)).toBe('?scenario=x');
  });

  it('falls back to seed 1 for a seed that is not a u32, and says so', () => {
    for (const bad of ['-3', 'abc', '4294967296', '']) {
      const p = parseUrl(`?scenario=x&seed=${bad}`);
      expect(p.url.seed).toBe(1);
      expect(p.ignored).toEqual([expect.stringContaining('seed=')]);
    }
  });

  it('keeps the fitted costs and dotted fields the fit panel links with', () => {
    // The fit's "open with the fitted machine" link: its costs.* were dropped as malformed.
    const link = scenarioLink('x86-munmap-shootdown', [
      'machine=skylake-desktop-4',
      'costs.ipi_delivery_ns=812.5',
      'workload.flushes=5',
    ]);
    const p = parseUrl(link);
    expect(p.ignored).toEqual([]);
    expect(p.url.overrides).toEqual([
      'machine=skylake-desktop-4',
      'costs.ipi_delivery_ns=812.5',
      'workload.flushes=5',
    ]);
    expect(parseUrl('?set=bogus.x%3D1&set=costs.x%3Da%3Db').ignored).toHaveLength(2);
  });

  it('names every part of a broken link it ignores and keeps the rest', () => {
    const p = parseUrl(
      '?scenario=x&step=0&t=-5&win=9,3&ev=1.5&spacing=wide&theme=pink&set=oops&zoom=3&origin=nope&src=%%%',
    );
    expect(p.url).toMatchObject({ view: 'explore', scenario: 'x', step: null, overrides: [] });
    expect(p.view).toEqual(NO_VIEW);
    const src = withSource(p.url, p.source!, unpackSource(p.source!.src));
    const names = [...p.ignored, ...src.ignored].map((i) => i.split(/[=:]/)[0]);
    expect(names.sort()).toEqual(
      ['ev', 'origin', 'set', 'spacing', 'src', 'step', 't', 'theme', 'win', 'zoom'].sort(),
    );
  });

  it('reports a truncated scenario text instead of running garbage', () => {
    const src = compressToEncodedURIComponent('[scenario]\ntitle = "cut"\n'.repeat(10));
    const cut = src.slice(0, src.length / 2);
    const p = parseUrl(`?file=a.toml&src=${cut}`);
    const r = withSource(p.url, p.source!, unpackSource(p.source!.src));
    expect(r.url.custom).toBeNull();
    expect(r.ignored).toEqual([
      `src=${cut.slice(0, 40)}…: the scenario text is damaged (cut short?) and cannot be unpacked`,
    ]);
  });
});

describe('a link’s own scenario (src=)', () => {
  const text = '[scenario]\ntitle = "mine"\n'.repeat(50);
  const src = compressToEncodedURIComponent(text);

  it('is handed over still packed, the rest of the link applied at once', () => {
    const p = parseUrl(`?file=mine.toml&src=${src}&seed=7&set=pcid=on`);
    // A '+' of lz-string's alphabet is a space once URLSearchParams has read it; both unpack.
    expect(p.source).toEqual({ name: 'mine.toml', src: src.replace(/\+/g, ' ') });
    expect(p.url).toMatchObject({ view: 'explore', custom: null, seed: 7, overrides: ['pcid=on'] });
    expect(p.ignored).toEqual([]);
    expect(withSource(p.url, p.source!, unpackSource(p.source!.src)).url.custom).toEqual({
      name: 'mine.toml',
      text,
    });
    expect(parseUrl(`?src=${src}`).source?.name).toBe('scenario.toml');
  });

  it('over the link cap is refused by its length, with nothing handed over', () => {
    const p = parseUrl(`?file=big.toml&src=${'A'.repeat(200 * 1024)}`);
    expect(p.source).toBeUndefined();
    expect(p.url.custom).toBeNull();
    expect(p.ignored).toEqual([
      `src=${'A'.repeat(40)}…: the scenario text is 200 KiB, over the 128 KiB a tlbscope link may have; it was not opened`,
    ]);
  });

  it('names why an unpacked text is refused: past the text cap, or too many tasks', () => {
    const huge = compressToEncodedURIComponent('# '.concat('qwhdkfmzpxnbtvlr'.repeat(70_000)));
    expect(unpackSource(huge)).toEqual({
      problem: 'the scenario text unpacks to more than the 1,024 KiB a link may carry',
    });
    const tasks = compressToEncodedURIComponent('[[tasks]]\ncpu = 0\n'.repeat(5000));
    expect(unpackSource(tasks)).toEqual({
      problem: 'tasks: 5,000 [[tasks]] tables, over the 4,096 a scenario may have',
    });
    expect(unpackSource('')).toEqual({
      problem: 'the scenario text is damaged (cut short?) and cannot be unpacked',
    });
  });
});

describe('checking a link against what the app has', () => {
  it('replaces an unknown scenario by the default and drops values the controls refuse', () => {
    const c = checkLink(
      {
        ...base,
        scenario: 'gone',
        overrides: ['cpus=8', 'Warp Drive=9', 'pcid=maybe', 'cpus=9999'],
        compare: true,
        overridesB: ['pcid=off'],
      },
      ['x86-munmap-shootdown'],
      'x86-munmap-shootdown',
    );
    expect(c.value.scenario).toBe('x86-munmap-shootdown');
    expect(c.value.overrides).toEqual(['cpus=8']);
    expect(c.value.overridesB).toEqual(['pcid=off']);
    expect(c.ignored).toEqual([
      'scenario=gone: no such scenario; showing x86-munmap-shootdown',
      'set=Warp Drive=9: Warp Drive is not a setting name',
      'set=pcid=maybe: pcid is one of on, off',
      'set=cpus=9999: cpus is from 1 to 512',
    ]);
  });

  it('passes settings the controls do not show to the simulator, which validates them', () => {
    const kept = [
      'max_events=1000000',
      'costs.ipi_delivery_ns=900',
      'workload.flushes=5',
      'warp=9',
    ];
    const c = checkLink({ ...base, overrides: kept }, ['x'], 'x');
    expect(c.value.overrides).toEqual(kept);
    expect(c.ignored).toEqual([]);
  });

  it('drops a step, event, cursor or window the run does not have', () => {
    const run = { steps: 4, events: 100, extent: [0, 5000] as [number, number] };
    const c = checkAgainstRun(
      9,
      { cursor: 6000, window: [7000, 8000], selected: 100, spacing: 'time' },
      run,
    );
    expect(c.value).toEqual({ step: null, view: NO_VIEW });
    expect(c.ignored).toHaveLength(4);
    expect(c.ignored[0]).toBe('step=9: this scenario has 4 steps; showing the free sandbox');
    const ok = checkAgainstRun(
      2,
      { cursor: 10, window: [5, 90], selected: 99, spacing: 'event' },
      run,
    );
    expect(ok.ignored).toEqual([]);
    expect(ok.value.step).toBe(2);
  });
});

describe('the data view', () => {
  it('is named in the URL and read back', () => {
    const url = writeUrl({ ...base, view: 'data', scenario: null });
    expect(url).toBe('?view=data');
    expect(readUrl(url).view).toBe('data');
    expect(readUrl('?view=bogus').view).toBe('home');
  });

  it('names the chart an embed of it shows', () => {
    const s = { ...base, view: 'data' as const, scenario: null, embed: true, chart: 'b · m' };
    expect(writeUrl(s)).toBe('?view=data&chart=b+%C2%B7+m&embed=1');
    expect(readUrl(writeUrl(s))).toEqual(s);
  });
});

describe('the landing page', () => {
  it('is what an empty URL shows, and a scenario opens the explorer', () => {
    expect(readUrl('').view).toBe('home');
    expect(readUrl('?scenario=x86-lazy-tlb&step=2')).toMatchObject({ view: 'explore', step: 2 });
    expect(readUrl('?scenario=x&step=0').step).toBeNull();
  });
});

describe('the counterexample view', () => {
  it('round-trips view=counterexample with its step, settings and the B side', () => {
    const s: UrlState = {
      ...base,
      scenario: 'x86-r1-percpu-descriptor-race',
      overrides: ['preempt=preemptible_wait'],
      compare: true,
      overridesB: ['flush_info=stack'],
      check: true,
      cxStep: 9,
    };
    const q = writeUrl(s);
    expect(q).toBe(
      '?scenario=x86-r1-percpu-descriptor-race&view=counterexample&cx=9&set=preempt%3Dpreemptible_wait&compare=1&setB=flush_info%3Dstack',
    );
    expect(readUrl(q)).toEqual(s);
    expect(parseUrl(q).ignored).toEqual([]);
  });

  it('opens the explorer on the default scenario without a scenario, and names a bad step', () => {
    expect(readUrl('?view=counterexample')).toMatchObject({ view: 'explore', check: true });
    const p = parseUrl('?scenario=x&view=counterexample&cx=0');
    expect(p.url.cxStep).toBeNull();
    expect(p.ignored).toEqual(['cx=0: counterexample steps are numbered from 1']);
  });

  it('ignores a counterexample step outside the counterexample view, saying why', () => {
    const p = parseUrl('?scenario=x&cx=3');
    expect(p.url.check).toBeUndefined();
    expect(p.ignored).toEqual(['cx=3: a counterexample step needs view=counterexample']);
  });

  it('leaves a plain explorer link as it was', () => {
    expect(writeUrl({ ...base, check: false, cxStep: 4 })).toBe('?scenario=x');
  });
});

describe('a window near the largest number', () => {
  it('is written so that it reads back', () => {
    const p = parseUrl('?scenario=x&win=0,1e308');
    expect(p.view.window).toEqual([0, 1e308]);
    const again = parseUrl(writeUrl(p.url, p.view));
    expect(again.ignored).toEqual([]);
    expect(again.view.window).toEqual([0, 1e308]);
  });
});
