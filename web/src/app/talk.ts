// Talk mode (?talk=1): the page laid out for a projector. Whether it is on is the URL state's
// `talk` flag (app/url.ts writes it like every other part of the view); this file holds the
// blanking key and the clicker keys.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Talk {
  on: boolean;
  toggle: () => void;
  /** The screen is blanked (the `b` key a presenter uses to pull the audience's eyes away). */
  blank: boolean;
  setBlank: (b: boolean) => void;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName));
}

/** Talk mode's toggle and its blanking key; `on` and `setOn` are the URL state's `talk`. */
export function useTalk(on: boolean, setOn: (on: boolean) => void): Talk {
  const [blank, setBlank] = useState(false);
  const toggle = useCallback(() => {
    setOn(!on);
    setBlank(false);
  }, [on, setOn]);

  useEffect(() => {
    if (!on) return;
    // Capture phase, ahead of the page's shortcuts: while blanked, any key only unblanks.
    const onKey = (e: KeyboardEvent) => {
      if (blank) {
        if (['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) return;
        e.preventDefault();
        e.stopPropagation();
        setBlank(false);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === 'b' || e.key === 'B') {
        e.preventDefault();
        e.stopPropagation();
        setBlank(true);
      }
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [on, blank]);

  return { on, toggle, blank, setBlank };
}

/**
 * The keys a presentation clicker sends (Space / PageDown / → forward, PageUp / ← back),
 * walking the guided steps. They stop at the first and the last step: in front of a room,
 * one click too many should not leave the narration.
 */
export function talkKeys(
  steps: number,
  index: number | null,
  go: (index: number) => void,
): Record<string, () => void> {
  const next = () => {
    if (steps === 0) return;
    if (index === null) go(0);
    else if (index + 1 < steps) go(index + 1);
  };
  const prev = () => {
    if (index !== null && index > 0) go(index - 1);
  };
  return { Space: next, PageDown: next, ArrowRight: next, PageUp: prev, ArrowLeft: prev };
}

/**
 * The guided steps as the clicker sees them. While a step's re-run is under way the guide
 * knows no steps (it reads them from the finished run), so the last known count and the
 * URL's step stand in: a click during a re-run moves on rather than being lost, and the
 * guide applies that step's settings when its run arrives.
 */
export function useClickerSteps(
  guide: { steps: readonly unknown[]; index: number | null; go: (i: number) => void },
  urlStep: number | null,
  setStep: (step: number) => void,
): { steps: number; index: number | null; go: (i: number) => void } {
  const known = useRef(0);
  if (guide.steps.length) known.current = guide.steps.length;
  if (guide.steps.length) return { steps: guide.steps.length, index: guide.index, go: guide.go };
  return {
    steps: known.current,
    index: urlStep === null ? null : urlStep - 1,
    go: (i) => setStep(i + 1),
  };
}
