// Fits its content into the space the page gives it, scrollbars never: the timelines have a
// fixed height (their lanes) and take any width, so the content is laid out at width W/s and
// scaled by s, where s makes its height fit. Text and marks shrink together, nothing is cut.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Narrowest width the content is laid out at (its axis labels need it), in CSS px. */
const MIN_WIDTH = 620;
/** Largest magnification, so a big frame shows a larger diagram rather than a blurry one. */
const MAX_SCALE = 2;

export function fitScale(box: { w: number; h: number }, contentHeight: number): number {
  if (box.w <= 0 || box.h <= 0 || contentHeight <= 0) return 1;
  return Math.min(MAX_SCALE, box.h / contentHeight, box.w / MIN_WIDTH);
}

export function FitBox({ children, className }: { children: ReactNode; className?: string }) {
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
        const s = fitScale({ w: o.clientWidth, h: o.clientHeight }, i.offsetHeight);
        setScale((old) => (Math.abs(old - s) < 0.005 ? old : s));
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
  }, []);
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

/** One line of text that shrinks (to `min` of its size) rather than wrap or be cut. */
export function FitLine({
  children,
  className,
  min = 0.6,
}: {
  children: ReactNode;
  className?: string;
  min?: number;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [size, setSize] = useState(1);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      el.style.fontSize = '';
      const s = Math.max(min, Math.min(1, (el.clientWidth - 2) / Math.max(1, el.scrollWidth)));
      el.style.fontSize = s < 1 ? `${s}em` : '';
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
