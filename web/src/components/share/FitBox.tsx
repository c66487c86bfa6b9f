// Fits its content into the space the page gives it, scrollbars never: the timelines have a
// fixed height (their lanes) and take any width, so the content is laid out at width W/s and
// scaled by s, where s makes its height fit. Text and marks shrink together, but not below
// `minScale` (its smallest text stays legible): content still too tall is reported through
// `onOverflow`, so the caller can show less of it (squeeze.ts), and meanwhile cut at the bottom.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Narrowest width the content is laid out at (its axis labels need it), in CSS px. */
const MIN_WIDTH = 620;
/** Narrowest layout when the legibility floor overrides MIN_WIDTH: two axis ticks still fit. */
const NARROWEST = 360;
/**
 * Largest magnification: a projector-sized frame shows 30 px type, no more (the SVG stays
 * sharp, and the timeline's canvas draws at the scale it is shown at).
 */
const MAX_SCALE = 3;

export function fitScale(
  box: { w: number; h: number },
  contentHeight: number,
  minScale = 0,
): number {
  if (box.w <= 0 || box.h <= 0 || contentHeight <= 0) return 1;
  const tall = Math.min(MAX_SCALE, box.h / contentHeight);
  const s = Math.min(tall, box.w / MIN_WIDTH);
  if (s >= minScale) return s;
  // The floor already lays the content out narrower than MIN_WIDTH: then let the height set
  // the scale (down to NARROWEST wide), so a squeezed diagram still fills a small frame.
  return Math.max(minScale, Math.min(tall, box.w / NARROWEST));
}

/** The largest scale a frame of this width allows, whatever the height. */
export function widest(box: { w: number }): number {
  return Math.min(MAX_SCALE, box.w / MIN_WIDTH);
}

/** Whether content of this height fits the box only below `minScale`. */
export function overflows(box: { w: number; h: number }, contentHeight: number, minScale: number) {
  return box.h > 0 && contentHeight > 0 && box.h / contentHeight < minScale - 0.005;
}

export function FitBox({
  children,
  className,
  minScale = 0,
  onOverflow,
  onRoom,
  content,
}: {
  children: ReactNode;
  className?: string;
  minScale?: number;
  onOverflow?: () => void;
  /**
   * Height left blank under the content at the largest scale its width allows, in its own px;
   * negative when it is taller than the frame at that scale (the height then sets the scale).
   */
  onRoom?: (px: number) => void;
  /** Changes when the caller changed what it shows: measure again even if the size did not. */
  content?: unknown;
}) {
  const over = useRef(onOverflow);
  over.current = onOverflow;
  const room = useRef(onRoom);
  room.current = onRoom;
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i) return;
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const box = { w: o.clientWidth, h: o.clientHeight };
        const s = fitScale(box, i.offsetHeight, minScale);
        setScale((old) => (Math.abs(old - s) < 0.005 ? old : s));
        if (overflows(box, i.offsetHeight, minScale)) over.current?.();
        else room.current?.(box.h / widest(box) - i.offsetHeight);
      });
    };
    const observer = new ResizeObserver(fit);
    observer.observe(o);
    observer.observe(i);
    fit();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [minScale, content]);
  return (
    <div className={`fit-box ${className ?? ''}`} ref={outer}>
      <div
        className="fit-content"
        ref={inner}
        data-scale={scale.toFixed(3)}
        style={{ width: `${100 / scale}%`, transform: `scale(${scale})` }}
      >
        {children}
      </div>
    </div>
  );
}

/**
 * One line of text that shrinks (to `min` of its size, and not below `minPx`) rather than wrap
 * or be cut; what is still too long at that size wraps onto a second line.
 */
export function FitLine({
  children,
  className,
  min = 0.6,
  minPx = 0,
}: {
  children: ReactNode;
  className?: string;
  min?: number;
  minPx?: number;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [size, setSize] = useState(1);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      el.style.fontSize = '';
      el.style.whiteSpace = '';
      const floor = Math.max(min, minPx / (parseFloat(getComputedStyle(el).fontSize) || 1));
      const wanted = (el.clientWidth - 2) / Math.max(1, el.scrollWidth);
      const s = Math.max(floor, Math.min(1, wanted));
      el.style.fontSize = s < 1 ? `${s}em` : '';
      if (wanted < floor) el.style.whiteSpace = 'normal';
      setSize(s);
    };
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    fit();
    return () => observer.disconnect();
  });
  return (
    <p className={className} ref={ref} data-fit={size.toFixed(2)}>
      {children}
    </p>
  );
}
