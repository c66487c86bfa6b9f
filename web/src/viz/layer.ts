// A drawing's named layer: one <g class="name"> under `parent`, made on the first pass and
// found on every later one, so a redraw fills the same group instead of stacking another.
import type { BaseType, Selection } from 'd3';

export type Layer = Selection<SVGGElement, unknown, null, undefined>;

export function layer<P extends BaseType>(
  parent: Selection<P, unknown, null, undefined>,
  name: string,
): Layer {
  return parent
    .selectAll<SVGGElement, unknown>(`g.${name}`)
    .data([0])
    .join((enter) => enter.append('g').attr('class', name)) as unknown as Layer;
}
