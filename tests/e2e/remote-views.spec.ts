// Views of a run kept in its worker (`remote=<rows>` lowers the threshold, so a run of tens of
// thousands of rows takes that path), compared with the same run computed in Node by the same
// WASM build and the page's own functions.
import { readFileSync } from 'node:fs';
import { tracefsChunks } from '../../bench/gen-tracefs.mjs';
import { parseRecording } from '../../web/src/recording/parse';
import { Simulator } from '../../sim-wasm/pkg/tlbscope_sim.js';
import { toPerfettoJson } from '../../web/src/export/perfetto';
import { extentOf } from '../../web/src/model/events';
import { rasteriseLag, toGenerations, toLagIndex } from '../../web/src/model/generations';
import { toPosMap, traceEnd } from '../../web/src/model/spacing';
import { gensLayout, lagRow } from '../../web/src/viz/remoteGens';
import { highlightRows, stepFrame } from '../../web/src/model/guide';
import { legendEntries } from '../../web/src/model/legend';
import type { Step } from '../../web/src/sim/scenario';
import { runScenario } from '../../web/src/sim/run';
import { initSimulatorForNode, readScenario } from '../../web/src/sim/testing';
import { EventKind, toTrace } from '../../web/src/trace/trace';
import { formatNs } from '../../web/src/viz/scales';
import { expect, test } from './fixtures';

function stepsOf(text: string): Step[] {
  const sim = new Simulator(text, [], 1);
  const steps = JSON.parse(sim.stepsJson()) as Step[];
  sim.free();
  return steps;
}

const SET = ['cpus=16', 'flushes=700'];

test('a run kept in its worker downloads whole as the same Perfetto file as the run in Node', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  initSimulatorForNode();
  const run = runScenario(readScenario('x86-munmap-shootdown'), { overrides: SET });
  const rows = run.trace.n;
  // More rows than one slice the page asks for (16,384): the file is written across slices.
  expect(rows).toBeGreaterThan(40_000);
  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown', remote: '10000' });
  for (const s of SET) q.append('set', s);
  const { page } = sim;
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 100_000 });
  await expect(page.locator('.timeline.remote')).toBeVisible();
  const button = page.getByTestId('perfetto-whole');
  // The button says how large the file will be before it is asked for.
  await expect(button).toHaveText(
    new RegExp(`all of A \\(${rows.toLocaleString('en-US')} rows, about [\\d.]+ (kB|MB)\\)`),
  );
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const text = readFileSync(await download.path(), 'utf8');
  const want = toPerfettoJson(run.trace, {
    title: run.title,
    source: 'predicted by the tlbscope model (A)',
  });
  expect(text.length).toBe(want.length);
  expect(text === want).toBe(true);
  await expect(page.getByTestId('perfetto-progress')).toHaveText(
    `Exported all ${rows.toLocaleString('en-US')} rows (${(want.length / 1e6).toFixed(1)} MB).`,
  );
});

test("a guided step's run kept in its worker outlines the step's rows, veils the other CPUs and keeps its legend", async ({
  sim,
}) => {
  test.setTimeout(180_000);
  initSimulatorForNode();
  const id = 'x86-munmap-shootdown';
  const text = readScenario(id);
  const steps = stepsOf(text);
  let outlined = 0;
  for (const [i, step] of steps.entries()) {
    if (step.compare || !step.highlight.length) continue;
    const { trace } = runScenario(text, { overrides: step.set });
    const extent = extentOf(trace);
    const rows = highlightRows(trace, step, step.window ?? extent);
    // Every row this step's run has, and any threshold below it keeps the run in the worker.
    await sim.page.goto(`./?scenario=${id}&step=${i + 1}&remote=10`);
    await expect(sim.page.locator('.app')).toHaveAttribute('data-state', 'idle', {
      timeout: 60_000,
    });
    const box = sim.page.locator('.timeline.remote');
    await expect(box).toBeVisible();
    // The outlines are the page-held run's highlighted rows (all lie in the step's window).
    await expect(box.locator('.timeline-status')).toContainText(
      `${rows.length} of the step's ${rows.length} rows outlined`,
    );
    const drawn = await box
      .locator('rect.highlight-outline')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row'))));
    expect(drawn.sort((a, b) => a - b)).toEqual([...rows].sort((a, b) => a - b));
    outlined += drawn.length;
    // The CPUs outside the step's subject are veiled (the page-held timeline folds them).
    if (!step.lens.length) {
      const frame = stepFrame(trace, step, rows, extent);
      const veiled = await box
        .locator('rect.remote-unfocused')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-cpus')));
      const want: string[] = [];
      for (let c = 0; frame.cpus.length && c < trace.cpus; c++) {
        if (frame.cpus.includes(c)) continue;
        const last = want.at(-1)?.split('-').map(Number);
        if (last && last[1] === c - 1) want[want.length - 1] = `${last[0]}-${c}`;
        else want.push(`${c}-${c}`);
      }
      expect(veiled).toEqual(want);
    }
    // The legend names the kinds the run has, counted in the worker.
    await expect(sim.page.locator('.legend li')).toHaveText(
      legendEntries(trace).map((e) => e.label),
    );
  }
  expect(outlined).toBeGreaterThan(5);
});

test("a run kept in its worker lists its invariant violations in the summary, as the page-held run's", async ({
  sim,
}) => {
  initSimulatorForNode();
  const id = 'x86-r8-plus-one-rule';
  const { trace } = runScenario(readScenario(id));
  const want: string[] = [];
  for (let i = 0; i < trace.n && want.length < 20; i++)
    if (trace.kind[i] === EventKind.InvariantViolated)
      want.push(
        `CPU ${trace.cpu[i]} at ${formatNs(trace.time[i])}: ${trace.strings[trace.arg[i]]}`,
      );
  expect(want.length).toBe(20);
  await sim.page.goto(`./?scenario=${id}&remote=10`);
  await expect(sim.page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  await expect(sim.page.locator('.timeline.remote')).toBeVisible();
  await expect(sim.page.locator('ol.violations li')).toHaveText(want);
});

test("a run kept in its worker draws the tlb_gen charts of the page-held run's model", async ({
  sim,
}) => {
  test.setTimeout(120_000);
  initSimulatorForNode();
  const set = ['cpus=8', 'flushes=60'];
  const { trace } = runScenario(readScenario('x86-munmap-shootdown'), { overrides: set });
  const model = toGenerations(trace);
  const end = traceEnd(trace);
  const pos = toPosMap(trace, 'time', end);
  const q = new URLSearchParams({ scenario: 'x86-munmap-shootdown', remote: '100' });
  for (const s of set) q.append('set', s);
  const { page } = sim;
  await page.goto(`./?${q}`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
  const box = page.locator('.timeline.remote');
  await expect(box).toBeVisible();
  // Off for a run kept in its worker until asked for (its model is built there on demand).
  const toggle = page.getByRole('checkbox', { name: 'tlb_gen charts' });
  await expect(toggle).not.toBeChecked();
  await expect(box.locator('.remote-gens')).toHaveCount(0);
  await toggle.check();
  await expect(box.locator('.remote-gens g.gen-track')).toHaveCount(model.mms.length);
  const mm = model.mms[0];
  await expect(box.locator('.remote-gens text.gen-title').first()).toHaveText(
    `mm ${mm.mm}: tlb_gen and each CPU's slot (bands: CPU behind)`,
  );
  // The bands: each CPU row's pixel columns read back from the painted image, classed as
  // nothing, up to date (the handler's green) or behind (the stall's orange), against the
  // chart's own rasteriseLag over the page-held run's model for the same window and width.
  const canvas = box.locator('.remote-gens canvas');
  await expect(canvas).toHaveAttribute('data-window', /,/);
  const got = await canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d')!;
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    return { w: c.width, h: c.height, win: c.getAttribute('data-window')!, px: Array.from(px) };
  });
  const [t0, t1] = got.win.split(',').map(Number);
  const W = got.w;
  const row = lagRow(mm.slots.length);
  const rowsY = gensLayout([
    {
      mm: mm.mm,
      time: new Float64Array(1),
      value: new Float64Array(1),
      cpus: new Uint16Array(mm.slots.length),
      lag: new Int8Array(0),
    },
  ]).tracks[0].rowsY;
  let behind = 0;
  let mismatched = 0;
  mm.slots.forEach((s, r) => {
    const col = new Int32Array(W).fill(-1);
    rasteriseLag(toLagIndex(s, pos), t0, t1, col);
    const y = Math.floor(rowsY + r * row + row / 2);
    for (let c = 0; c < W; c++) {
      const o = (y * W + c) * 4;
      const [R, G, A] = [got.px[o], got.px[o + 1], got.px[o + 3]];
      const seen = A === 0 ? -1 : R > G ? 1 : 0;
      const want = Math.min(1, col[c]);
      if (seen !== want) mismatched++;
      if (want > 0) behind++;
    }
  });
  expect(behind).toBeGreaterThan(50);
  expect(mismatched).toBe(0);
});

test('a recording kept in its worker downloads whole as the Perfetto file of the same recording parsed in Node', async ({
  sim,
}) => {
  test.setTimeout(120_000);
  const text = [...tracefsChunks(40_000, 16)].join('');
  const rec = parseRecording(text, 'big.trace');
  const trace = toTrace({ ...rec.columns, cpus: rec.cpus, strings: [] });
  expect(trace.n).toBeGreaterThan(20_000);
  const { page } = sim;
  await page.goto('./?scenario=x86-munmap-shootdown&remote=10000');
  await sim.waitForIdle();
  await page.setInputFiles('#recording-input', {
    name: 'big.trace',
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
  await expect(page.getByTestId('recording-loaded')).toContainText('kept in the import worker');
  const button = page.getByTestId('perfetto-whole');
  await expect(button).toContainText(`(${trace.n.toLocaleString('en-US')} rows, about`);
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const got = readFileSync(await download.path(), 'utf8');
  // The rows, their reasons, pages, source lines and task names, the threads and the flows:
  // everything after the metadata (which names the file as the page titles it).
  const want = toPerfettoJson(trace, {
    title: 'big.trace',
    source: 'recorded',
    extras: { ...rec.columns, tasks: rec.tasks },
  });
  const events = (s: string) => s.slice(s.indexOf('"traceEvents"'));
  expect(events(got).length).toBe(events(want).length);
  expect(events(got) === events(want)).toBe(true);
  expect(JSON.parse(got).metadata['tlbscope-rows']).toBe(trace.n);
});
