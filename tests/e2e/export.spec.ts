// Export: the timeline as SVG (with its state link in <metadata>) and as a 2× PNG, dense
// lanes as an embedded image; dropping an exported SVG reopens its view; an imported CSV
// goes back out with formula cells made inert.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Download, Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function downloaded(page: Page, click: () => Promise<void>): Promise<[Download, Buffer]> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await d.path();
  return [d, readFileSync(path)];
}

interface SvgFacts {
  ok: boolean;
  width: number;
  height: number;
  texts: string[];
  link: string | null;
  marks: number;
  images: string[];
}

/** Parses an SVG the way a browser opening the file would, and reads what it shows. */
function readSvg(page: Page, text: string): Promise<SvgFacts> {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const svg = doc.documentElement;
    const source = doc.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'source')[0];
    return {
      ok: svg.localName === 'svg' && doc.getElementsByTagName('parsererror').length === 0,
      width: Number(svg.getAttribute('width')),
      height: Number(svg.getAttribute('height')),
      texts: Array.from(svg.getElementsByTagName('text')).map((e) => e.textContent ?? ''),
      link: source?.textContent ?? null,
      marks: svg.querySelectorAll('[data-row]').length,
      images: Array.from(svg.getElementsByTagName('image')).map(
        (i) => i.getAttribute('href')?.slice(0, 22) ?? '',
      ),
    };
  }, text);
}

/**
 * The share of a band of a PNG (by default its middle, where the diagram is) in colours far
 * from its corner's background: a picture whose marks did not come out is near 0.
 */
function inkInMiddle(
  page: Page,
  png: Buffer,
  band: [number, number] = [0.3, 0.7],
): Promise<number> {
  return page.evaluate(
    async ([b64, from, to]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const ctx = c.getContext('2d') as OffscreenCanvasRenderingContext2D;
      ctx.drawImage(bmp, 0, 0);
      const bg = ctx.getImageData(1, 1, 1, 1).data;
      const y0 = Math.floor(bmp.height * from);
      const { data } = ctx.getImageData(0, y0, bmp.width, Math.floor(bmp.height * (to - from)));
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) {
        const d =
          Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]);
        if (d > 60) ink++;
      }
      return ink / (data.length / 4);
    },
    [png.toString('base64'), band[0], band[1]] as const,
  );
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(b: Buffer): [number, number] {
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

test('the timeline exports as an SVG with title, legend, caption and state link, and a 2× PNG', async ({
  sim,
}, info) => {
  const { page } = sim;
  await sim.open({ scenario: 'x86-munmap-shootdown', step: 3 });
  // The page rewrites its address (adding model=) after it settles; read the link once it has.
  await expect(page).toHaveURL(/[?&]model=\d+/);
  const link = page.url();
  const title = (await page.locator('.intro h2').textContent()) ?? '';
  const stepTitle = (await page.locator('[data-step-title]').textContent()) ?? '';
  const legend = await page.locator('.legend li').allTextContents();
  expect(legend.length).toBeGreaterThan(3);
  const plotWidth = Number(await page.locator('.timeline svg.timeline-top').getAttribute('width'));
  const spans = await page.locator('.timeline svg.timeline-top [data-row]').count();

  const [svgDl, svgBytes] = await downloaded(page, () =>
    page.getByRole('button', { name: /as SVG$/ }).click(),
  );
  expect(svgDl.suggestedFilename()).toBe('tlbscope-x86-munmap-shootdown-step3.svg');
  const svg = await readSvg(page, svgBytes.toString('utf8'));
  expect(svg.ok).toBe(true);
  expect(svg.texts).toContain(title);
  expect(svg.texts.join(' ')).toContain(`Step 3 of`);
  expect(svg.texts.join(' ')).toContain(stepTitle);
  for (const l of legend) expect(svg.texts).toContain(l.trim());
  expect(svg.texts.join(' ')).toMatch(
    /Predicted by the tlbscope model with the \S+ machine preset/,
  );
  expect(svg.texts).toEqual(expect.arrayContaining(['CPU 0 · initiator', 'time']));
  expect(svg.link).toBe(link);
  // Few marks: vector, every one that is on the page.
  expect(svg.images).toEqual([]);
  expect(svg.marks).toBe(spans);
  expect(svg.width).toBe(plotWidth);

  const [pngDl, png] = await downloaded(page, () =>
    page.getByRole('button', { name: /as PNG$/ }).click(),
  );
  expect(pngDl.suggestedFilename()).toBe('tlbscope-x86-munmap-shootdown-step3.png');
  expect(pngSize(png)).toEqual([2 * svg.width, 2 * svg.height]);
  // The lanes and their marks are drawn, not just the frame around them.
  expect(await inkInMiddle(page, png)).toBeGreaterThan(0.05);
  await svgDl.saveAs(info.outputPath('export-timeline.svg'));
  await pngDl.saveAs(info.outputPath('export-timeline.png'));
  // Exporting moved nothing on the page.
  await expect(page.locator('.timeline .cursor')).toHaveCount(0);
  expect(sim.consoleErrors).toEqual([]);
});

test('dense canvas lanes go into the SVG as an embedded image of the whole timeline', async ({
  sim,
}, info) => {
  test.setTimeout(60_000);
  const { page } = sim;
  // 20,000 flushes (1.6 M rows): dense, and under the 2 M rows above which a run stays in
  // its worker (whose timeline draws from the worker's answers and has no export).
  await sim.open({ scenario: 'x86-bench-128cpu', set: ['flushes=5000'] });
  await expect(page.locator('.timeline-status')).toContainText('dense view');
  const [, bytes] = await downloaded(page, () =>
    page.getByRole('button', { name: /as SVG$/ }).click(),
  );
  const svg = await readSvg(page, bytes.toString('utf8'));
  expect(svg.ok).toBe(true);
  expect(svg.images).toEqual(['data:image/png;base64,']);
  // All the lanes, including those scrolled out of view on the page.
  const plotHeight = Number(
    await page.locator('.timeline svg.timeline-top').getAttribute('height'),
  );
  expect(svg.height).toBeGreaterThan(plotHeight);
  expect(plotHeight).toBeGreaterThan(await page.evaluate(() => innerHeight));
  const [pngDl, png] = await downloaded(page, () =>
    page.getByRole('button', { name: /as PNG$/ }).click(),
  );
  expect(pngSize(png)).toEqual([2 * svg.width, 2 * svg.height]);
  await pngDl.saveAs(info.outputPath('export-dense.png'));
  // The run's threads are on CPUs 0–7, whose lanes come first under the legend; the idle
  // CPUs' lanes and folded groups below them are empty by design, so the middle of a file
  // whose legend grew would show little ink even with every mark drawn.
  const ink = await inkInMiddle(page, png, [0.1, 0.35]);
  expect(ink).toBeGreaterThan(0.02);
});

async function dropFile(
  page: Page,
  name: string,
  type: string,
  content: string | Buffer,
): Promise<void> {
  const b64 = Buffer.from(content).toString('base64');
  const dt = await page.evaluateHandle(
    ([n, y, t]) => {
      const d = new DataTransfer();
      d.items.add(new File([Uint8Array.from(atob(t), (c) => c.charCodeAt(0))], n, { type: y }));
      return d;
    },
    [name, type, b64] as const,
  );
  await page.locator('body').dispatchEvent('dragover', { dataTransfer: dt });
  await page.locator('body').dispatchEvent('drop', { dataTransfer: dt });
}

test('dropping an exported SVG or PNG on the page reopens its view; a foreign one is refused', async ({
  sim,
}) => {
  // Two exports, three page loads and three drops: 9 s alone. In the full suite on two cores
  // Playwright's waitForURL twice hung after logging the navigation to the right view (once
  // waiting for the load event, once for "commit"), so the address is polled instead. Only the
  // place is compared: once the view rests the page rewrites its address with where it looks
  // (the window, the cursor), which a poll may see before or after.
  test.setTimeout(120_000);
  const { page } = sim;
  await sim.open({ scenario: 'x86-lazy-tlb', step: 2, seed: 5 });
  const link = page.url();
  // An exported link also names the model version it was drawn with (`model=`).
  const sameView = (u: URL) => {
    const [got, want] = [new URL(u).searchParams, new URL(link).searchParams];
    return (
      /^\d+$/.test(got.get('model') ?? '') &&
      ['view', 'scenario', 'step', 'seed', 'set'].every((k) => got.get(k) === want.get(k))
    );
  };
  const stepTitle = (await page.locator('[data-step-title]').textContent()) ?? '';
  const [, bytes] = await downloaded(page, () =>
    page.getByRole('button', { name: /as SVG$/ }).click(),
  );
  const exported = bytes.toString('utf8');
  const [, png] = await downloaded(page, () =>
    page.getByRole('button', { name: /as PNG$/ }).click(),
  );

  await sim.openHome();
  await dropFile(page, 'tlbscope-x86-lazy-tlb-step2.svg', 'image/svg+xml', exported);
  await expect.poll(() => sameView(new URL(page.url())), { timeout: 30_000 }).toBe(true);
  await sim.waitForIdle();
  await expect(page.locator('[data-step-title]')).toHaveText(stepTitle);

  // The PNG carries the same link in a text chunk.
  await sim.openHome();
  await dropFile(page, 'tlbscope-x86-lazy-tlb-step2.png', 'image/png', png);
  await expect.poll(() => sameView(new URL(page.url())), { timeout: 30_000 }).toBe(true);
  await sim.waitForIdle();
  await expect(page.locator('[data-step-title]')).toHaveText(stepTitle);

  // The same file pointing at another site: not followed, and the page says why.
  const foreign = exported.replaceAll(new URL(link).origin, 'https://elsewhere.example');
  await sim.openHome();
  const home = page.url();
  await dropFile(page, 'foreign.svg', 'image/svg+xml', foreign);
  await expect(page.getByRole('alert')).toContainText('https://elsewhere.example');
  await expect(page.getByRole('alert')).toContainText('not from this tlbscope');
  expect(page.url()).toBe(home);
  // An SVG with no state link, and a file that is not an SVG.
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await dropFile(page, 'plain.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await expect(page.getByRole('alert')).toContainText('plain.svg has no tlbscope state link');
  await dropFile(page, 'notes.txt', 'text/plain', 'hello');
  await expect(page.getByRole('alert')).toContainText('notes.txt is not an SVG');
  expect(page.url()).toBe(home);
});

test('a dropped PNG or SVG whose state link is over the cap is refused at once with the cap named', async ({
  sim,
}) => {
  const { page } = sim;
  await sim.open({ scenario: 'x86-lazy-tlb', step: 2, seed: 5 });
  const [, png] = await downloaded(page, () =>
    page.getByRole('button', { name: /as PNG$/ }).click(),
  );
  const [, svg] = await downloaded(page, () =>
    page.getByRole('button', { name: /as SVG$/ }).click(),
  );
  await sim.openHome();
  const home = page.url();
  // Built in the page (50 MB through the test driver would be slow): the exported PNG with a
  // tlbscope-state text chunk of `size` bytes before its IEND, and the SVG with a long link.
  const drop = (kind: 'png' | 'svg', size: number) =>
    page.evaluate(
      ([kind, size, b64, svgText, here]) => {
        const file = (() => {
          if (kind === 'svg') {
            const link = `${here}?scenario=x86-lazy-tlb&pad=${'p'.repeat(size)}`;
            const text = svgText.replace(/(<dc:source>)[^<]*/, `$1${link}`);
            return new File([text], 'long.svg', { type: 'image/svg+xml' });
          }
          const whole = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          // The exported PNG without its own text chunk, so that only the large one is there.
          const view = new DataView(whole.buffer);
          const kept: Uint8Array[] = [whole.subarray(0, 8)];
          for (let at = 8; at < whole.length;) {
            const end = at + 12 + view.getUint32(at);
            if (String.fromCharCode(...whole.subarray(at + 4, at + 8)) !== 'tEXt')
              kept.push(whole.subarray(at, end));
            at = end;
          }
          const bytes = new Uint8Array(kept.reduce((n, k) => n + k.length, 0));
          kept.reduce((n, k) => (bytes.set(k, n), n + k.length), 0);
          const key = 'tlbscope-state\0';
          const chunk = new Uint8Array(12 + key.length + size);
          new DataView(chunk.buffer).setUint32(0, key.length + size);
          chunk.set(
            [...'tEXt'].map((c) => c.charCodeAt(0)),
            4,
          );
          chunk.set(
            [...key].map((c) => c.charCodeAt(0)),
            8,
          );
          const prefix = new TextEncoder().encode(`${here}?scenario=x86-lazy-tlb&pad=`);
          chunk.fill(0x70, 8 + key.length);
          chunk.set(prefix, 8 + key.length);
          return new File([bytes.subarray(0, -12), chunk, bytes.subarray(-12)], 'big.png', {
            type: 'image/png',
          });
        })();
        const d = new DataTransfer();
        d.items.add(file);
        document.body.dispatchEvent(
          new DragEvent('dragover', { dataTransfer: d, bubbles: true, cancelable: true }),
        );
        document.body.dispatchEvent(
          new DragEvent('drop', { dataTransfer: d, bubbles: true, cancelable: true }),
        );
      },
      [kind, size, png.toString('base64'), svg.toString('utf8'), home] as const,
    );
  for (const [kind, size] of [
    ['png', 50 * 1024 * 1024],
    ['png', 2 * 1024 * 1024],
    ['svg', 2 * 1024 * 1024],
  ] as const) {
    await drop(kind, size);
    await expect(page.getByRole('alert')).toContainText(
      `${kind === 'png' ? 'big.png' : 'long.svg'}: its state link is`,
    );
    await expect(page.getByRole('alert')).toContainText(
      'over the 128 KiB a tlbscope link may have',
    );
    expect(page.url()).toBe(home);
    await page.getByRole('button', { name: 'Dismiss' }).click();
  }
  expect(sim.consoleErrors).toEqual([]);
});

test('an imported CSV exports back as CSV with formula cells made inert', async ({ sim }) => {
  const { page } = sim;
  await sim.openData();
  await sim.importCsv(resolve('tests/fixtures/formula-injection.csv'));
  await page.getByRole('button', { name: /^Add 1 measurements/ }).click();
  const table = page.locator('details.dataset[data-file="formula-injection.csv"]');
  await expect(table).toBeVisible();
  const [dl, bytes] = await downloaded(page, () =>
    table.getByRole('button', { name: 'Export formula-injection.csv as CSV' }).click(),
  );
  expect(dl.suggestedFilename()).toBe('formula-injection-export.csv');
  // After the `#` lines that say how the file was read come the schema's header and rows.
  const lines = bytes
    .toString('utf8')
    .trim()
    .split(/\r\n/)
    .filter((l) => !l.startsWith('#'));
  expect(lines[0]).toBe('arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source');
  expect(lines[1]).toBe(
    "x86,'=cmd|' /C calc'!A0,4,madvise-touch,flush_info=percpu,op_latency,2.61,us,0.05,5,'@SUM(1+1)",
  );
  // Shipped datasets are in the repository already; only imports offer the export.
  await expect(
    page
      .locator('details.dataset')
      .first()
      .getByRole('button', { name: /as CSV$/ }),
  ).toHaveCount(0);
});

test('a Data view chart exports as SVG and 2× PNG with its legend and provenance', async ({
  sim,
}, info) => {
  const { page } = sim;
  await sim.openData();
  const figure = page.locator('figure.overlay-chart').first();
  const benchmark = (await figure.getAttribute('data-benchmark')) ?? '';
  const metric = (await figure.getAttribute('data-metric')) ?? '';
  const points = await figure.locator('svg [data-kind="measured"]').count();
  expect(points).toBeGreaterThan(0);
  const [svgDl, bytes] = await downloaded(page, () =>
    figure.getByRole('button', { name: /as SVG$/ }).click(),
  );
  const svg = await readSvg(page, bytes.toString('utf8'));
  expect(svg.ok).toBe(true);
  expect(svg.texts).toContain(`${benchmark} · ${metric}: measured vs predicted`);
  expect(svg.texts.some((t) => t.startsWith('measured on '))).toBe(true);
  expect(svg.texts.join(' ')).toContain('Predicted: the tlbscope model, not measured.');
  expect(svg.link).toBe(page.url());
  const marks = await page.evaluate(
    (t) =>
      new DOMParser().parseFromString(t, 'image/svg+xml').querySelectorAll('[data-kind="measured"]')
        .length,
    bytes.toString('utf8'),
  );
  expect(marks).toBe(points);
  const [pngDl, png] = await downloaded(page, () =>
    figure.getByRole('button', { name: /as PNG$/ }).click(),
  );
  expect(pngSize(png)).toEqual([2 * svg.width, 2 * svg.height]);
  expect(await inkInMiddle(page, png)).toBeGreaterThan(0.01);
  await svgDl.saveAs(info.outputPath('export-chart.svg'));
  await pngDl.saveAs(info.outputPath('export-chart.png'));
  expect(sim.consoleErrors).toEqual([]);
});
