// The selected event's details beside the event on the timeline, rather than two screens
// down: placed next to the event's outline (or the point clicked), kept on screen, closed with
// Escape or its button. It floats over the figure instead of narrowing the timeline, so the
// clicked event does not move out from under the pointer.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { placeBeside, type Box } from '../app/placeBeside';
import './detailsPopover.css';

interface Props {
  /** The figure the timelines are in: the popover is placed within its width. */
  figure: HTMLElement | null;
  /** Where the reader last clicked, in viewport coordinates then, and the page's scroll then. */
  click: { x: number; y: number; scrollX: number; scrollY: number } | null;
  /** Changes whenever the selection does, so that the popover follows it. */
  selection: string;
  onClose: () => void;
  children: ReactNode;
}

/** The outline the timelines draw around the selected event (at most one is selected). */
function outlineOf(figure: HTMLElement): Box | null {
  const el = figure.querySelector('.timeline .selection-outline');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height
    ? { left: r.left, top: r.top, width: r.width, height: r.height }
    : null;
}

export function DetailsPopover({ figure, click, selection, onClose, children }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // What had the focus when it opened (the timeline clicked): it gets it back on Escape.
  const [opener] = useState(() => document.activeElement);
  const close = () => {
    const inside = ref.current?.contains(document.activeElement);
    onClose();
    if (inside && opener instanceof HTMLElement) opener.focus();
  };
  const place = useCallback(() => {
    const pop = ref.current;
    if (!pop || !figure) return;
    const f = figure.getBoundingClientRect();
    const fig = { left: f.left, top: f.top, width: f.width, height: f.height };
    // The click in today's viewport coordinates: the page may have scrolled since.
    const point = click && {
      x: click.x - (window.scrollX - click.scrollX),
      y: click.y - (window.scrollY - click.scrollY),
    };
    const anchor =
      outlineOf(figure) ??
      (point
        ? { left: point.x - 2, top: point.y - 6, width: 4, height: 12 }
        : { left: fig.left + fig.width, top: Math.max(fig.top, 0), width: 0, height: 0 });
    // Under a long span, the details go by the point clicked on it.
    const pointX =
      point && point.x >= anchor.left && point.x <= anchor.left + anchor.width
        ? point.x
        : undefined;
    const at = placeBeside(
      anchor,
      // Its whole height, not what an earlier placing's limit left of it.
      { width: pop.offsetWidth, height: pop.scrollHeight + (pop.offsetHeight - pop.clientHeight) },
      fig,
      { width: document.documentElement.clientWidth, height: window.innerHeight },
      pointX,
    );
    pop.style.left = `${at.left - fig.left}px`;
    pop.style.top = `${at.top - fig.top}px`;
    pop.style.maxHeight = `${at.maxHeight}px`;
  }, [figure, click]);
  // Placed before it is painted, then again over the next frames: the timeline draws the new
  // outline after React renders, and a run kept in its worker sends the chain a little later.
  useLayoutEffect(() => {
    place();
    let frames = 0;
    let id = requestAnimationFrame(function again() {
      place();
      if (++frames < 20) id = requestAnimationFrame(again);
    });
    return () => cancelAnimationFrame(id);
  }, [place, selection]);
  useEffect(() => {
    const pop = ref.current;
    if (!pop) return;
    const observer = new ResizeObserver(() => place());
    observer.observe(pop);
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [place]);
  return (
    <div
      ref={ref}
      className="details-popover"
      role="dialog"
      aria-label="Event details"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // Closes this alone: the page's Escape would also clear the selection.
        e.preventDefault();
        e.stopPropagation();
        close();
      }}
    >
      <button
        type="button"
        className="details-close"
        aria-label="Close the event details"
        title="Close (Esc)"
        onClick={close}
      >
        ×
      </button>
      {children}
    </div>
  );
}
