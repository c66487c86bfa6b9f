// Zoom and pan of the timeline's window, Perfetto/speedscope style:
//   Ctrl/⌘ + wheel, trackpad pinch, W/S or +/-  zoom (around the pointer, cursor or centre)
//   drag, horizontal wheel / Shift + wheel, A/D or ←/→  pan
//   0  reset to the whole trace;  Esc  clear the selection
// Plain vertical wheel scrolls the page, so tall many-CPU timelines stay scrollable.
// Windows here are in positions (see model/spacing.ts); the caller converts to ns.

export type Window = [number, number];

/** Zooms by `factor` (< 1 zooms in) keeping `anchor` at the same place on screen. */
export function zoomWindow([a, b]: Window, factor: number, anchor: number): Window {
  return [anchor - (anchor - a) * factor, anchor + (b - anchor) * factor];
}

export function panWindow([a, b]: Window, delta: number): Window {
  return [a + delta, b + delta];
}

/** Keeps a window inside `extent` (shifting, not squashing) and at least `minSpan` wide. */
export function clampWindow([a, b]: Window, [e0, e1]: Window, minSpan: number): Window {
  const full = e1 - e0;
  let span = Math.min(full, Math.max(minSpan, b - a));
  if (span <= 0) span = full;
  const mid = (a + b) / 2;
  let lo = mid - span / 2;
  lo = Math.min(Math.max(lo, e0), e1 - span);
  return [lo, lo + span];
}

export const KEY_ZOOM = 0.8;
export const KEY_PAN = 0.15;
const DRAG_THRESHOLD = 3;

export interface InteractionHooks {
  /** Plot area in client x coordinates. */
  plotBounds(): [number, number];
  getWindow(): Window;
  setWindow(w: Window): void;
  extent(): Window;
  minSpan(): number;
  /** Anchor for keyboard zoom (the cursor, when visible), in positions. */
  keyAnchor(): number | null;
  /** A click (not a drag) on the plot at client (x, y) on `target`. */
  click(clientX: number, clientY: number, target: EventTarget | null): void;
  escape(): void;
}

export function attachInteractions(el: HTMLElement, hooks: InteractionHooks): () => void {
  const set = (w: Window) => hooks.setWindow(clampWindow(w, hooks.extent(), hooks.minSpan()));
  const posAt = (clientX: number) => {
    const [l, r] = hooks.plotBounds();
    const [a, b] = hooks.getWindow();
    return a + ((clientX - l) / Math.max(1, r - l)) * (b - a);
  };
  const perPixel = () => {
    const [l, r] = hooks.plotBounds();
    const [a, b] = hooks.getWindow();
    return (b - a) / Math.max(1, r - l);
  };

  const onWheel = (e: WheelEvent) => {
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      const factor = Math.exp(Math.max(-1, Math.min(1, e.deltaY * unit * 0.005)));
      set(zoomWindow(hooks.getWindow(), factor, posAt(e.clientX)));
    } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      e.preventDefault();
      const d = (e.shiftKey && !e.deltaX ? e.deltaY : e.deltaX) * unit;
      set(panWindow(hooks.getWindow(), d * perPixel()));
    }
  };

  let drag: { id: number; x: number; w: Window; moved: boolean } | null = null;
  const onDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    const [l, r] = hooks.plotBounds();
    // A little slack: violation marks at the very ends of the run overhang the plot.
    if (e.clientX < l - 8 || e.clientX > r + 8) return;
    drag = { id: e.pointerId, x: e.clientX, w: hooks.getWindow(), moved: false };
  };
  const onMove = (e: PointerEvent) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    if (!drag.moved && Math.abs(dx) < DRAG_THRESHOLD) return;
    if (!drag.moved) {
      drag.moved = true;
      try {
        el.setPointerCapture?.(e.pointerId);
      } catch {
        // Synthetic pointers (tests, benchmarks) cannot be captured; dragging still works.
      }
      el.classList.add('dragging');
    }
    const [a, b] = drag.w;
    const [l, r] = hooks.plotBounds();
    set(panWindow(drag.w, (-dx * (b - a)) / Math.max(1, r - l)));
  };
  const onUp = (e: PointerEvent) => {
    if (!drag || e.pointerId !== drag.id) return;
    const wasDrag = drag.moved;
    drag = null;
    el.classList.remove('dragging');
    if (el.hasPointerCapture?.(e.pointerId)) el.releasePointerCapture(e.pointerId);
    if (!wasDrag) hooks.click(e.clientX, e.clientY, e.target);
  };
  const onCancel = () => {
    drag = null;
    el.classList.remove('dragging');
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const w = hooks.getWindow();
    const anchor = () => {
      const c = hooks.keyAnchor();
      return c !== null && c >= w[0] && c <= w[1] ? c : (w[0] + w[1]) / 2;
    };
    const span = w[1] - w[0];
    switch (e.key) {
      case 'w':
      case 'W':
      case '+':
      case '=':
        set(zoomWindow(w, KEY_ZOOM, anchor()));
        break;
      case 's':
      case 'S':
      case '-':
      case '_':
        set(zoomWindow(w, 1 / KEY_ZOOM, anchor()));
        break;
      case 'a':
      case 'A':
      case 'ArrowLeft':
        set(panWindow(w, -span * KEY_PAN * (e.shiftKey ? 3 : 1)));
        break;
      case 'd':
      case 'D':
      case 'ArrowRight':
        set(panWindow(w, span * KEY_PAN * (e.shiftKey ? 3 : 1)));
        break;
      case '0':
        hooks.setWindow(hooks.extent());
        break;
      case 'Escape':
        hooks.escape();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  el.addEventListener('wheel', onWheel, { passive: false });
  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onCancel);
  el.addEventListener('keydown', onKey);
  return () => {
    el.removeEventListener('wheel', onWheel);
    el.removeEventListener('pointerdown', onDown);
    el.removeEventListener('pointermove', onMove);
    el.removeEventListener('pointerup', onUp);
    el.removeEventListener('pointercancel', onCancel);
    el.removeEventListener('keydown', onKey);
  };
}
