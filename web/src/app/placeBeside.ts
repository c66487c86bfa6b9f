// Where the event details go: beside the event they describe, never off screen. Pure, so that
// the rules can be checked without a browser (placeBeside.test.ts).

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The gap between the event and its details, in px. */
export const GAP = 12;
/** What is kept clear of the viewport's edges, in px. */
export const MARGIN = 8;
/** Less room than this over and under the event, and the details may cover it. */
export const MIN_HEIGHT = 120;

/**
 * Where a box of `size` goes beside `anchor` (all in the viewport's coordinates): to its right
 * where the figure has room, else to its left, else under it or over it, whichever leaves more
 * room, centred on `pointX` (where it was clicked) if given, and no taller than that room so
 * that it does not cover the event. It stays within the figure's width and the viewport's
 * height: the details are on screen without scrolling.
 */
export function placeBeside(
  anchor: Box,
  size: { width: number; height: number },
  figure: Box,
  viewport: { width: number; height: number },
  pointX?: number,
): { left: number; top: number; maxHeight: number } {
  const minLeft = Math.max(figure.left, MARGIN);
  const maxRight = Math.min(figure.left + figure.width, viewport.width - MARGIN);
  const minTop = MARGIN;
  const maxBottom = viewport.height - MARGIN;
  const full = maxBottom - minTop;
  const clampTop = (t: number) => Math.max(minTop, Math.min(t, maxBottom - size.height));
  const clampLeft = (l: number) => Math.max(minLeft, Math.min(l, maxRight - size.width));
  const right = anchor.left + anchor.width + GAP;
  if (right + size.width <= maxRight)
    return { left: right, top: clampTop(anchor.top - GAP), maxHeight: full };
  const left = anchor.left - GAP - size.width;
  if (left >= minLeft) return { left, top: clampTop(anchor.top - GAP), maxHeight: full };
  // No room either side (a long span, or a narrow screen): under the event, or over it.
  const x = clampLeft((pointX ?? anchor.left + anchor.width / 2) - size.width / 2);
  const below = Math.max(minTop, anchor.top + anchor.height + GAP);
  const roomBelow = maxBottom - below;
  const roomAbove = Math.min(anchor.top - GAP, maxBottom) - minTop;
  // Too little room on either side (an event taller than the screen): over it, at the top.
  if (Math.max(roomBelow, roomAbove) < MIN_HEIGHT)
    return { left: x, top: clampTop(minTop), maxHeight: full };
  if (roomBelow >= size.height || roomBelow >= roomAbove)
    return { left: x, top: below, maxHeight: roomBelow };
  const height = Math.min(size.height, roomAbove);
  return { left: x, top: minTop + roomAbove - height, maxHeight: roomAbove };
}
