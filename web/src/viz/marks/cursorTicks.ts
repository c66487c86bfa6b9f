// The cursor's time label shares the axis band with the tick labels: where it lands on one,
// that tick's label is hidden until the cursor moves on, so the two never print as one
// ("7.922 µs8 µs"). Runs after the axis and after every overlay redraw.
import { boxesOverlap } from '../labelLayout';
import { LABEL_CHAR_PX } from './overlay';

/** About the widest a character of a tick label gets (10 px). */
const TICK_CHAR_PX = 6.5;
/** Space kept between the cursor's label and a tick's. */
const GAP = 4;

export function hideTicksUnderCursor(top: SVGSVGElement): void {
  const label = top.querySelector<SVGTextElement>('g.overlay g.cursor text');
  const text = label?.textContent ?? '';
  let cursor: { x0: number; x1: number; y0: number; y1: number } | null = null;
  if (label && text) {
    const x = Number(label.getAttribute('x'));
    const w = text.length * LABEL_CHAR_PX;
    const [x0, x1] = label.getAttribute('text-anchor') === 'end' ? [x - w, x] : [x, x + w];
    cursor = { x0: x0 - GAP, x1: x1 + GAP, y0: 0, y1: 1 };
  }
  for (const t of top.querySelectorAll<SVGTextElement>('g.axis g.tick text')) {
    const at = /translate\(([-\d.e]+)/.exec(t.parentElement?.getAttribute('transform') ?? '');
    const x = at ? Number(at[1]) : NaN;
    const w = (t.textContent ?? '').length * TICK_CHAR_PX;
    const hit = cursor && boxesOverlap(cursor, { x0: x - w / 2, x1: x + w / 2, y0: 0, y1: 1 });
    if (hit) {
      if (t.getAttribute('display') !== 'none') t.setAttribute('display', 'none');
    } else if (t.hasAttribute('display')) t.removeAttribute('display');
  }
}
