// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderKernelHistory } from './kernelHistory';

function draw(chosen: number | null, values: (number | null)[]) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  renderKernelHistory(
    svg,
    ['4.13', '4.14', '5.3'],
    [
      { id: 'flush', label: 'flush latency', values },
      { id: 'preempt', label: 'max preempt-off', values: [3000, 3000, 400] },
    ],
    chosen,
    400,
    160,
  );
  return svg;
}

describe('renderKernelHistory', () => {
  it('draws a point per kernel with a value, and skips the pending ones', () => {
    const svg = draw(null, [2000, null, 1900]);
    expect(svg.querySelectorAll('[data-series="flush"] .history-point')).toHaveLength(2);
    expect(svg.querySelectorAll('[data-series="preempt"] .history-point')).toHaveLength(3);
    const titles = [...svg.querySelectorAll('[data-series="flush"] title')].map(
      (t) => t.textContent,
    );
    expect(titles).toEqual(['4.13: 2 µs', '5.3: 1.9 µs']);
    expect(svg.querySelector('rect.history-chosen')).toBeNull();
  });

  it('marks the chosen kernel, and a lower value sits lower', () => {
    const svg = draw(2, [2000, 2000, 1000]);
    const band = svg.querySelector('rect.history-chosen');
    expect(band).not.toBeNull();
    const ys = [...svg.querySelectorAll('[data-series="flush"] .history-point')].map((p) =>
      Number(/,([\d.]+)\)/.exec(p.getAttribute('transform') ?? '')?.[1]),
    );
    // SVG y grows downwards: the smaller latency of 5.3 is drawn lower on the page.
    expect(ys[2]).toBeGreaterThan(ys[0]);
    const xs = [...svg.querySelectorAll('[data-series="flush"] .history-point')].map((p) =>
      Number(/\(([\d.]+),/.exec(p.getAttribute('transform') ?? '')?.[1]),
    );
    const bx = Number(band!.getAttribute('x'));
    const bw = Number(band!.getAttribute('width'));
    expect(xs[2]).toBeGreaterThan(bx);
    expect(xs[2]).toBeLessThan(bx + bw);
  });
});
