// The keyboard shortcuts, opened with "?" and closed with Escape.
import { useEffect, useRef } from 'react';

export const SHORTCUTS: readonly [string, string][] = [
  ['?', 'show or hide this help'],
  ['W / S or + / −', 'zoom in / out (timeline focused)'],
  ['A / D or ← / →', 'pan left / right (timeline focused)'],
  ['0', 'show the whole run (timeline focused)'],
  ['. / ,', 'step to the next / previous event'],
  ['Space', 'play / pause'],
  ['E', 'switch between true-time and one-step-per-event spacing'],
  ['C', 'compare two settings: A and B on one time axis, flush by flush'],
  ['L', 'copy a link to this exact view'],
  ['M', 'switch between the light and the dark theme (remembered)'],
  ['[', 'hide or show the settings sidebar (remembered)'],
  ['Escape', 'cancel a run, clear the selection, close dialogs'],
  ['T', 'talk mode: large type for a projector, no sidebars'],
  ['Space / PageDown / →', 'talk mode: next guided step (a clicker’s keys)'],
  ['PageUp / ←', 'talk mode: previous guided step'],
  ['B', 'talk mode: blank the screen (any key brings it back)'],
];

export function HelpOverlay({ onClose }: { onClose: () => void }) {
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
            {SHORTCUTS.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
