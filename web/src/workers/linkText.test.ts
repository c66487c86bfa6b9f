// The link-text client answers every request even without its worker: where none can be made
// (Node, an old browser) and when the worker fails mid-request.
import { compressToEncodedURIComponent } from 'lz-string';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { packInWorker, unpackInWorker } from './linkText';

const text = '[scenario]\ntitle = "mine"\n'.repeat(30);

describe('the link-text client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('packs and unpacks in place where no worker can be made', async () => {
    const src = await packInWorker(text);
    expect(src).toBe(compressToEncodedURIComponent(text));
    expect(await unpackInWorker(src)).toEqual({ text });
    expect(await unpackInWorker(src.slice(0, 20))).toEqual({
      problem: 'the scenario text is damaged (cut short?) and cannot be unpacked',
    });
  });

  it('answers in place when its worker fails', async () => {
    const made: FailingWorker[] = [];
    class FailingWorker {
      onerror: (() => void) | null = null;
      onmessage = null;
      constructor() {
        made.push(this);
      }
      postMessage() {
        setTimeout(() => this.onerror?.(), 0);
      }
    }
    vi.stubGlobal('Worker', FailingWorker);
    const src = compressToEncodedURIComponent(text);
    expect(await unpackInWorker(src)).toEqual({ text });
    expect(await packInWorker(text)).toBe(src);
    // A failed worker is dropped: the next request makes a new one.
    expect(made).toHaveLength(2);
  });
});
