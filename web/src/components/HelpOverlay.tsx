// The keyboard shortcuts, opened with "?" and closed with Escape.
import { useEffect, useRef } from 'react';

// What the keys do where the reader is: on a guided step ← / → walk the steps (useShortcuts in
// App.tsx), except while the timeline has focus, where they pan (viz/zoom.ts takes them first).
const GUIDED: readonly [string, string][] = [
  ['← / →', 'previous / next guided step (after the last: the free sandbox)'],
  ['A / D, or ← / → on the timeline', 'pan left / right (timeline focused)'],
];
const FREE: readonly [string, string][] = [
  ['A / D or ← / →', 'pan left / right (timeline focused)'],
];

/** The shortcuts as they act on the page now: in guided mode the arrows walk the steps. */
export function shortcutsFor(guided: boolean): readonly [string, string][] {
  return [...SHORTCUTS.slice(0, 2), ...(guided ? GUIDED : FREE), ...SHORTCUTS.slice(2)];
}

const SHORTCUTS: readonly [string, string][] = [
  ['?', 'show or hide this help'],
  ['W / S or + / −', 'zoom in / out (timeline focused)'],
  ['0', 'show the whole run (timeline focused)'],
  ['. / ,', 'step to the next / previous event'],
  ['Space', 'play / pause'],
  ['N / P', 'next / previous step of a counterexample (after Check all interleavings)'],
  ['E', 'switch between true-time and one-step-per-event spacing'],
  ['C', 'compare two settings: A and B on one time axis, flush by flush'],
  ['L', 'copy a link to this exact view'],
  ['M', 'switch between the light and the dark theme (remembered)'],
  ['[', 'hide or show the settings sidebar (remembered)'],
  ['{ / }', 'kernel history: the previous / next kernel (x86 runs)'],
  ['Escape', 'cancel a run, clear the selection, close dialogs'],
  ['T', 'talk mode: large type for a projector, no sidebars'],
  ['Space / PageDown / →', 'talk mode: next guided step (a clicker’s keys)'],
  ['PageUp / ←', 'talk mode: previous guided step'],
  ['B', 'talk mode: blank the screen (any key brings it back)'],
];

export function HelpOverlay({ onClose, guided }: { onClose: () => void; guided: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="help-title"
        tabIndex={-1}
        ref={ref}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape' || e.key === '?') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table>
          <tbody>
            {shortcutsFor(guided).map(([k, v]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {location.protocol !== 'file:' && (
          <p>
            More in the <a href="docs/guide.html">user guide</a>, the{' '}
            <a href="docs/cli.html">CLI reference</a> and the{' '}
            <a href="docs/model.html">model reference</a>.
          </p>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
