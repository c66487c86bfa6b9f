// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { measurement } from '../content/measurementFixture';
import type { Measurement } from '../content/datasets';
import { toOverlayCharts } from '../model/overlay';
import { renderMeasured } from './measured';

const m = (over: Partial<Measurement>): Measurement =>
  measurement({ origin: { kind: 'shipped', file: 'seed.csv' }, rows: [3], ...over });

function render(ms: Measurement[]) {
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
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  renderMeasured(svg, chart, 400, 240);
  return svg;
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
    expect(title).toContain('measured on icelake-8336c-128 (seed-000)');
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
});
