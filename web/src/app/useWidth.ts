// The width of an element, kept current as it resizes (a timeline draws to its box's width).
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    setWidth(box.clientWidth);
    const observer = new ResizeObserver(() => setWidth(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
