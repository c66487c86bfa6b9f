// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import type { Measurement } from '../content/datasets';
import { toOverlayCharts } from '../model/overlay';
import { panelsOf } from '../model/panels';
import { labelLines, renderPanel } from './measured';

const m = (over: Partial<Measurement>): Measurement =>
  measurement({ origin: { kind: 'shipped', file: 'seed.csv' }, rows: [3], ...over });

function render(ms: Measurement[], opts = { log: false, difference: false }) {
  const [chart] = toOverlayCharts(ms, (x) =>
    x.variant === 'flush_info=stack'
      ? {
          status: 'done',
          ns: 2550,
          scenario: 'x86-madvise-touch',
          preset: 'icelake-8336c-128',
          ignored: [],
          aliased: [],
          perIteration: {},
        }
      : { status: 'none', reason: 'no' },
  );
  // Every panel into one <svg> per series, concatenated: what the card shows, in order.
  const root = document.createElement('div');
  for (const p of panelsOf(chart, opts.difference ? 'difference' : 'values')) {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    renderPanel(svg, p, 400, 240, { metric: chart.metric, log: opts.log });
    root.append(svg);
  }
  return root;
}

describe('renderMeasured', () => {
  it('draws an error bar and a point per measurement and a prediction beside it', () => {
    const svg = render([
      m({}),
      m({ variant: 'flush_info=percpu', machine: 'other', source: 'src2' }),
    ]);
    expect(svg.querySelectorAll('[data-kind="measured"]')).toHaveLength(2);
    expect(svg.querySelectorAll('[data-kind="error-bar"]')).toHaveLength(2);
    expect(svg.querySelectorAll('[data-kind="prediction"]')).toHaveLength(1);
    const verdicts = [...svg.querySelectorAll('g.point')].map((g) =>
      g.getAttribute('data-verdict'),
    );
    expect(verdicts).toEqual(['within-noise', 'no-prediction']);
  });

  it('tells series apart by shape, not colour alone, and hollows a point without stddev', () => {
    const svg = render([m({}), m({ machine: 'other', source: 'src2', stddev: null })]);
    const [a, b] = [...svg.querySelectorAll('[data-kind="measured"]')];
    expect(a.getAttribute('d')).not.toBe(b.getAttribute('d'));
    expect(b.getAttribute('class')).toMatch(/hollow/);
    expect(svg.querySelectorAll('[data-kind="error-bar"]')).toHaveLength(1);
  });

  it('says where every number comes from in its tooltip', () => {
    const svg = render([m({})]);
    const title = svg.querySelector('g.point title')!.textContent!;
    expect(title).toContain('measured on icelake-8336c-128 (zhou-2026-flush-tlb-info-stack)');
    expect(title).toContain('seed.csv, row 3');
    expect(title).toContain(
      'predicted by the tlbscope model (x86-madvise-touch, machine preset icelake-8336c-128): 2.55 µs',
    );
    expect(title).toContain('within measurement noise');
  });

  it('marks an axis that does not start at zero', () => {
    const svg = render([m({})]);
    expect(svg.querySelector('text.y-label')!.textContent).toBe('op_latency (µs), not from 0');
  });

  it('gives each series its own panel and axis, so a far-off series does not flatten another', () => {
    const seed = [
      m({ variant: 'flush_info=percpu', value: 2.5278, stddev: 0.0007 }),
      m({ variant: 'flush_info=stack_unaligned', value: 2.5508, stddev: 0.0023 }),
    ];
    const local = m({ variant: 'flush_info=percpu', value: 14.4632, machine: 'vm', source: 'me' });
    const root = render([...seed, local]);
    const svgs = root.querySelectorAll('svg');
    expect(svgs).toHaveLength(2);
    const ys = [...svgs[0].querySelectorAll('[data-kind="measured"]')].map((e) =>
      Number(/,([\d.]+)\)/.exec(e.getAttribute('transform')!)![1]),
    );
    // 0.023 µs apart, drawn more than a third of the plot apart (not squashed by 14.5 µs).
    expect(Math.abs(ys[0] - ys[1])).toBeGreaterThan(60);
    expect(svgs[1].querySelectorAll('[data-kind="measured"]')).toHaveLength(1);
  });

  it('keeps the measured mark and the prediction apart on every variant', () => {
    const root = render([m({})]);
    const x = (kind: string) =>
      Number(
        /translate\(([\d.]+),/.exec(
          root.querySelector(`[data-kind="${kind}"]`)!.getAttribute('transform')!,
        )![1],
      );
    expect(x('prediction') - x('measured')).toBeGreaterThanOrEqual(14);
  });

  it('prints whole variant labels, one line per `;` part, never cut', () => {
    const long = 'kernel=6.18.44-fc-v669;busy_threads=1';
    expect(labelLines(long)).toEqual(['kernel=6.18.44-fc-v669;', 'busy_threads=1']);
    const root = render([m({ variant: long })]);
    expect(root.querySelector(`.x-axis text[data-variant="${long}"]`)!.textContent).toBe(
      'kernel=6.18.44-fc-v669;busy_threads=1',
    );
  });

  it('draws a log axis on request and differences from the first variant in percent', () => {
    const ms = [
      m({ variant: 'flush_info=percpu', value: 2.5, stddev: 0.01 }),
      m({ variant: 'flush_info=stack', value: 2.55, stddev: 0.01 }),
    ];
    expect(render(ms, { log: true, difference: false }).querySelector('svg')!.dataset.scale).toBe(
      'log',
    );
    const diff = render(ms, { log: false, difference: true });
    expect(diff.querySelector('text.y-label')!.textContent).toBe(
      'op_latency (% vs the first variant)',
    );
    expect(diff.querySelectorAll('line.zero')).toHaveLength(1);
  });
});

/** A prediction of 2.5 us whose band runs from 2.4 us to `high` ns. */
const banded = (high: number) => ({
  status: 'done' as const,
  ns: 2500,
  scenario: 'x86-madvise-touch',
  preset: 'icelake-8336c-128',
  ignored: [],
  aliased: [],
  perIteration: {},
  band: { low: { ns: 2400, perIteration: {} }, high: { ns: high, perIteration: {} } },
});

describe('a swept panel', () => {
  /** Three thread counts, the model's band at 4 threads reaching up to `high4` ns. */
  const sweepPanel = (high4: number) => {
    const ms = [1, 2, 4].map((t) => m({ variant: `threads=${t}`, value: 2 + t / 10 }));
    const [chart] = toOverlayCharts(ms, (x) => banded(x.variant === 'threads=4' ? high4 : 2600));
    return { chart, panel: panelsOf(chart, 'values')[0] };
  };

  it("marks where a band runs past the plot's edge, with the end it reaches", () => {
    // The axis is the measurements' and predictions': a band reaching 40 us is far above it.
    const { chart, panel } = sweepPanel(40_000);
    expect(panel.sweep?.key).toBe('threads');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    renderPanel(svg, panel, 400, 240, { metric: chart.metric, log: false });
    const cuts = svg.querySelectorAll('[data-kind="band-cut"]');
    expect(cuts).toHaveLength(1);
    expect(cuts[0].querySelector('title')?.textContent).toMatch(/above the chart, to 40/);
    // Drawn again without the wide band, the mark goes.
    renderPanel(svg, sweepPanel(2600).panel, 400, 240, { metric: chart.metric, log: false });
    expect(svg.querySelectorAll('[data-kind="band-cut"]')).toHaveLength(0);
  });
});

describe('a categorical panel', () => {
  it("marks a band cut at the plot's edge too", () => {
    // Two variants (no sweep): the stack one's band reaches 40 us, far above the axis.
    const [chart] = toOverlayCharts([m({}), m({ variant: 'flush_info=percpu' })], (x) =>
      banded(x.variant === 'flush_info=stack' ? 40_000 : 2600),
    );
    const [panel] = panelsOf(chart, 'values');
    expect(panel.sweep).toBeNull();
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    renderPanel(svg, panel, 400, 240, { metric: chart.metric, log: false });
    const cuts = svg.querySelectorAll('g.point [data-kind="band-cut"]');
    expect(cuts).toHaveLength(1);
    expect(cuts[0].closest('g.point')?.getAttribute('data-variant')).toBe('flush_info=stack');
    expect(cuts[0].querySelector('title')?.textContent).toMatch(/above the chart, to 40/);
  });
});
