// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultCollapsed } from '../model/layout';
import { initiatorOf } from '../model/ipis';
import type { Spacing } from '../model/spacing';
import { toTimelineModel, type TimelineModel } from '../model/timelineModel';
import { runScenario } from '../sim/run';
import { initSimulatorForNode, readScenario } from '../sim/testing';
import { EventKind, type Trace } from '../trace/trace';
import { lensIntervals } from '../model/lens';
import { formatNs } from './scales';
import { describeStats, renderTimeline, type RenderStats, type TimelineState } from './timeline';

let small: Trace;
let dense: Trace;

beforeAll(() => {
  initSimulatorForNode();
  const text = readScenario('x86-munmap-shootdown');
  small = runScenario(text).trace;
  dense = runScenario(text, { overrides: ['cpus=64', 'flushes=200'] }).trace;
});

interface Drawn {
  top: SVGSVGElement;
  base: SVGSVGElement;
  stats: RenderStats;
  model: TimelineModel;
}

function draw(trace: Trace, state: Partial<TimelineState> = {}, spacing: Spacing = 'time'): Drawn {
  const ns = 'http://www.w3.org/2000/svg';
  const base = document.createElementNS(ns, 'svg');
  const top = document.createElementNS(ns, 'svg');
  document.body.append(base, top);
  const model = toTimelineModel(trace, spacing);
  const stats = renderTimeline({ base, top, canvas: null }, model, {
    window: model.pos.extentNs,
    width: 900,
    cursor: null,
    selected: null,
    highlight: [],
    collapsed: defaultCollapsed(trace.cpus, initiatorOf(trace)),
    initiator: initiatorOf(trace),
    ...state,
  });
  return { top, base, stats, model };
}

const count = (t: Trace, k: EventKind) => t.kind.filter((x) => x === k).length;

describe('renderTimeline on a small trace', () => {
  it('draws one lane per cpu, labelling the initiator', () => {
    const { top } = draw(small);
    const labels = [...top.querySelectorAll('.lane-label')].map((e) => e.textContent);
    expect(labels).toEqual(['CPU 0 · initiator', 'CPU 1', 'CPU 2', 'CPU 3']);
  });

  it('draws every span and every arrow the trace records as SVG marks', () => {
    const { top, stats } = draw(small);
    expect(stats.mode).toBe('svg');
    expect(top.querySelectorAll('[data-kind="IpiHandler"]')).toHaveLength(
      count(small, EventKind.IpiHandler),
    );
    expect(top.querySelectorAll('[data-kind="IpiArrow"]')).toHaveLength(
      count(small, EventKind.IpiHandler),
    );
    expect(top.querySelectorAll('[data-kind="AckArrow"]')).toHaveLength(
      count(small, EventKind.CsdUnlocked),
    );
    expect(describeStats(stats)).toBe('');
  });

  it('gives a span its tooltip when the pointer first rests on it', () => {
    const row = small.kind.indexOf(EventKind.IpiHandler);
    const { top } = draw(small);
    const rect = top.querySelector(`rect.span[data-row="${row}"]`)!;
    expect(rect.querySelector('title')).toBeNull();
    rect.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(rect.querySelector('title')?.textContent).toMatch(
      new RegExp(`^IpiHandler on CPU ${small.cpu[row]}: .* \\(row ${row}\\)$`),
    );
  });

  it('starts the keyed marks afresh for a new trace, so no tooltip describes the old one', () => {
    const { top, base, model } = draw(small);
    const arrowTitles = () => [...top.querySelectorAll('.arrow title')].map((t) => t.textContent);
    const before = arrowTitles();
    const other = runScenario(readScenario('x86-munmap-shootdown'), {
      overrides: ['costs.ipi_delivery_ns=7777'],
    }).trace;
    const next = toTimelineModel(other, 'time');
    expect(next).not.toBe(model);
    renderTimeline({ base, top, canvas: null }, next, {
      window: next.pos.extentNs,
      width: 900,
      cursor: null,
      selected: null,
      highlight: [],
      collapsed: new Set(),
      initiator: initiatorOf(other),
    });
    const after = arrowTitles();
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    // Each line's tooltip matches the arrow it is drawn for in the new trace.
    const fresh = draw(other).top;
    expect(after).toEqual([...fresh.querySelectorAll('.arrow title')].map((t) => t.textContent));
  });

  it('skips marks outside the visible window', () => {
    const { top } = draw(small, { window: [1e12, 2e12] });
    expect(top.querySelectorAll('[data-kind="IpiHandler"]')).toHaveLength(0);
  });

  it('marks the selected row by shape: a selected class and an outline', () => {
    const row = small.kind.indexOf(EventKind.IpiHandler);
    const { top } = draw(small, { selected: row });
    expect(top.querySelector(`rect.span[data-row="${row}"]`)?.classList).toContain('selected');
    expect(top.querySelector(`.selection-outline[data-row="${row}"]`)).not.toBeNull();
  });

  it('dims every mark but the highlighted rows', () => {
    const row = small.kind.indexOf(EventKind.FlushRange);
    const { top } = draw(small, { highlight: [row] });
    expect(top.querySelector(`rect.span[data-row="${row}"]`)?.classList).toContain('highlighted');
    expect(top.querySelectorAll('rect.span.dim').length).toBeGreaterThan(0);
  });

  it('draws the cursor as a line across the lanes', () => {
    const { model } = draw(small);
    const t = (model.pos.extentNs[0] + model.pos.extentNs[1]) / 2;
    const { top, stats } = draw(small, { cursor: t });
    const line = top.querySelector('g.cursor line');
    expect(Number(line?.getAttribute('x1'))).toBeCloseTo(stats.scales.x(t));
    expect(Number(line?.getAttribute('y2'))).toBe(stats.scales.height);
  });

  it('puts the cursor’s time on its right, or on its left where the plot would cut it off', () => {
    const { model } = draw(small);
    const [t0, t1] = model.pos.extentNs;
    const label = (t: number) => {
      const { top, stats } = draw(small, { cursor: t });
      const text = top.querySelector('g.cursor text');
      return {
        dx: Number(text?.getAttribute('x')) - stats.scales.x(t),
        anchor: text?.getAttribute('text-anchor'),
      };
    };
    expect(label(t0 + (t1 - t0) * 0.2)).toEqual({ dx: 4, anchor: 'start' });
    expect(label(t1)).toEqual({ dx: -4, anchor: 'end' });
  });

  it('redraws in place instead of appending duplicates', () => {
    const { top, base, model } = draw(small);
    const state = {
      window: model.pos.extentNs,
      width: 900,
      cursor: null,
      selected: null,
      highlight: [],
      collapsed: new Set<number>(),
      initiator: 0,
    };
    renderTimeline({ base, top, canvas: null }, model, state);
    expect(top.querySelectorAll('g.lane')).toHaveLength(small.cpus);
    expect(top.querySelectorAll('g.spans')).toHaveLength(1);
  });

  it('places rows at equal steps in event spacing', () => {
    const { top } = draw(small, {}, 'event');
    const xs = [...top.querySelectorAll('rect.span[data-kind="IpiHandler"]')].map((r) => [
      Number(r.getAttribute('data-row')),
      Number(r.getAttribute('x')),
    ]);
    const [[r0, x0], [r1, x1]] = xs;
    const step = (x1 - x0) / (r1 - r0);
    for (const [r, x] of xs) expect(x).toBeCloseTo(x0 + (r - r0) * step, 6);
    expect(top.querySelector('.axis-title')?.textContent).toBe('event order');
  });
});

describe('renderTimeline on a dense trace', () => {
  it('leaves the dense view to the canvas and says what it hides', () => {
    const { top, stats } = draw(dense);
    expect(stats.mode).toBe('canvas');
    expect(top.querySelectorAll('rect.span')).toHaveLength(0);
    expect(stats.arrowMode).toBe('hidden');
    expect(describeStats(stats)).toMatch(/[\d,]+ arrows hidden at this zoom/);
    expect(stats.canvasRects).toBeGreaterThan(0);
  });

  it('collapses all groups but the initiator’s on a 64-CPU machine', () => {
    const { top } = draw(dense);
    expect(top.querySelectorAll('g.group-toggle')).toHaveLength(4);
    expect(top.querySelectorAll('g.group-toggle[aria-expanded="false"]')).toHaveLength(3);
    expect(top.querySelectorAll('g.lane.aggregate')).toHaveLength(3);
    expect(top.querySelectorAll('g.lane[data-cpu]')).toHaveLength(16);
  });

  it('returns to SVG marks when zoomed in far enough', () => {
    const { model } = draw(dense);
    // A handler on a CPU of the expanded group (the initiator's).
    let row = Math.floor(dense.n / 2);
    while (row < dense.n && (dense.kind[row] !== EventKind.IpiHandler || dense.cpu[row] >= 16))
      row++;
    const t = dense.time[row];
    const { top, stats } = draw(dense, { window: [t - 2000, t + 2000] });
    expect(model.trace).toBe(dense);
    expect(stats.mode).toBe('svg');
    expect(top.querySelector(`rect.span[data-row="${row}"]`)).not.toBeNull();
  });
});

describe('renderTimeline frame costs', () => {
  it('computes canvas marks only for the rows in view', () => {
    const all = draw(dense).stats;
    const slice = draw(dense, { view: [0, 200] }).stats;
    expect(slice.canvasRects).toBeGreaterThan(0);
    expect(slice.canvasRects).toBeLessThan(all.canvasRects);
  });

  it('writes nothing when a frame repeats the last one', () => {
    const { top, base, model } = draw(dense);
    const observer = new MutationObserver(() => {});
    for (const el of [top, base])
      observer.observe(el, {
        subtree: true,
        attributes: true,
        childList: true,
        characterData: true,
      });
    renderTimeline({ base, top, canvas: null }, model, {
      window: model.pos.extentNs,
      width: 900,
      cursor: null,
      selected: null,
      highlight: [],
      collapsed: defaultCollapsed(dense.cpus, initiatorOf(dense)),
      initiator: initiatorOf(dense),
    });
    const changed = observer
      .takeRecords()
      .map(
        (r) =>
          `${(r.target as Element).getAttribute?.('class') ?? r.target.nodeName} ${r.attributeName ?? r.type}`,
      );
    observer.disconnect();
    expect(changed).toEqual([]);
  });
});

describe('a guided step’s frame on the timeline', () => {
  it('folds the CPUs outside the subject into strips that arrows still reach', () => {
    const { top } = draw(small, { fold: new Set([1, 2]) });
    const lanes = [...top.querySelectorAll('g.lane')].map((e) => e.getAttribute('data-cpu'));
    expect(lanes).toEqual(['0', '3']);
    const strip = top.querySelector('g.fold-toggle');
    expect(strip?.textContent).toBe('▸ CPUs 1–2');
    expect(strip?.getAttribute('role')).toBe('button');
    // No span of a folded CPU is drawn; the IPI arrows to them still are.
    expect(top.querySelectorAll('.span[data-cpu="1"], .span[data-cpu="2"]')).toHaveLength(0);
    expect(top.querySelectorAll('.arrow').length).toBeGreaterThan(0);
  });

  it('draws latency-lens brackets under their lane, labelled with their duration', () => {
    const run = runScenario(readScenario('x86-flush-info-story'));
    const lens = lensIntervals(run.trace, undefined, run.info.costs.context_switch_ns);
    const { top } = draw(run.trace, { lens, lensSubject: new Set(['wakeup_latency']) });
    const brackets = [...top.querySelectorAll('g.lens')];
    expect(brackets).toHaveLength(lens.length);
    const wake = top.querySelector('g.lens[data-lens="wakeup_latency"]');
    const iv = lens.find((l) => l.kind === 'wakeup_latency')!;
    expect(wake?.querySelector('text')?.textContent).toBe(
      `wakeup latency ${formatNs(iv.end - iv.start)}`,
    );
    expect(wake?.getAttribute('data-subject')).toBe('interval');
    expect(
      top.querySelector('g.lens[data-lens="irqs_off_delay"]')?.hasAttribute('data-subject'),
    ).toBe(false);
    // Under CPU 0's five tracks, above CPU 1's lane.
    const y = Number(wake?.querySelector('text')?.getAttribute('y'));
    const cpu1 = top.querySelector('g.lane[data-cpu="1"] text');
    expect(y).toBeLessThan(Number(cpu1?.getAttribute('y')));
  });
});
