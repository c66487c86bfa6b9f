// The model version is tied to the traces the Rust tests hold the simulator to, and a link of
// another version gets a notice that names what changed for its view.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODEL_CHANGES, MODEL_VERSION, modelNotice, withModel } from './modelVersion';
import { parseUrl } from './url';

const DIGESTS = 'sim-wasm/tests/fixtures/trace_digests.txt';

describe('model version', () => {
  it('is the version whose hash the trace digests file has now (a model change bumps it)', () => {
    // CRLF from a Windows checkout is the same file.
    const text = readFileSync(DIGESTS, 'utf8').replace(/\r\n/g, '\n');
    const sha = createHash('sha256').update(text).digest('hex');
    const current = MODEL_CHANGES[MODEL_CHANGES.length - 1];
    expect(
      sha,
      `${DIGESTS} changed: if a trace line changed, add version ${MODEL_VERSION + 1} to ` +
        `web/src/app/modelVersion.ts saying what changed; if lines were only added, give ` +
        `version ${MODEL_VERSION} the new hash`,
    ).toBe(current.digestsSha256);
    expect(MODEL_VERSION).toBe(current.version);
  });

  it('numbers versions 1, 2, 3, … with a distinct hash and a change text each', () => {
    MODEL_CHANGES.forEach((c, i) => {
      expect(c.version).toBe(i + 1);
      expect(c.changed.length).toBeGreaterThan(10);
      expect(c.views.length).toBeGreaterThan(0);
    });
    expect(new Set(MODEL_CHANGES.map((c) => c.digestsSha256)).size).toBe(MODEL_CHANGES.length);
  });

  it('says nothing for a link of this version or one without model=', () => {
    expect(modelNotice(MODEL_VERSION, 'explorer')).toBeNull();
    expect(modelNotice(null, 'explorer')).toBeNull();
  });

  it("lists the later versions' changes that move the link's view, and counts the others", () => {
    const n = modelNotice(2, 'guide');
    expect(n?.from).toBe(2);
    expect(n?.to).toBe(MODEL_VERSION);
    // Version 3 changed the will-it-scale scenarios only, which the guide does not show.
    expect(n?.changes.map((c) => c.version)).toEqual([4, 5, 6, 7]);
    expect(n?.changes[0].changed).toMatch(/switch_mm/);
    expect(n?.elsewhere).toBe(1);
    expect(modelNotice(2, 'data')?.changes.map((c) => c.version)).toEqual([3, 4, 5, 6, 7]);
  });

  it('says a link from a newer model than this site is newer, with no changes it cannot know', () => {
    expect(modelNotice(MODEL_VERSION + 1, 'explorer')).toMatchObject({
      newer: true,
      changes: [],
    });
  });

  it('adds model= to every query the page writes, and leaves the bare landing page bare', () => {
    expect(withModel('')).toBe('');
    expect(withModel('?scenario=x&seed=2')).toBe(`?model=${MODEL_VERSION}&scenario=x&seed=2`);
    expect(withModel('?scenario=x&model=1')).toBe(`?model=${MODEL_VERSION}&scenario=x`);
  });

  it('parses model= from a link, and names a malformed one as ignored', () => {
    expect(parseUrl('?scenario=x&model=2').model).toBe(2);
    expect(parseUrl('?scenario=x').model).toBeNull();
    const bad = parseUrl('?scenario=x&model=v2');
    expect(bad.model).toBeNull();
    expect(bad.ignored).toEqual(['model=v2: the model version is a whole number from 1']);
  });
});
