// A/B: the two runs' settings as tabs, so B's are one click away near the top of the sidebar
// rather than below the whole of A's long column. The hidden panel stays mounted, so that
// switching tabs keeps each control's state (an input being typed into, a scroll position).
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './settingsTabs.css';

interface Props {
  a: ReactNode;
  b: ReactNode;
}

const SIDES = ['A', 'B'] as const;

export function SettingsTabs({ a, b }: Props) {
  const [side, setSide] = useState<'A' | 'B'>('A');
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  // Arrow keys move between the tabs, as in any tab list (WAI-ARIA tabs pattern).
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End')
      return;
    e.preventDefault();
    e.stopPropagation();
    const next =
      e.key === 'Home' ? 'A' : e.key === 'End' ? 'B' : side === 'A' ? 'B' : ('A' as const);
    setSide(next);
    tabs.current[next]?.focus();
  };
  return (
    <div className="settings-tabs">
      <div role="tablist" aria-label="Settings of run" onKeyDown={onKey}>
        {SIDES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            id={`settings-tab-${s}`}
            aria-selected={side === s}
            aria-controls={`settings-panel-${s}`}
            tabIndex={side === s ? 0 : -1}
            ref={(el) => {
              tabs.current[s] = el;
            }}
            onClick={() => setSide(s)}
          >
            Settings {s}
          </button>
        ))}
      </div>
      {SIDES.map((s) => (
        <div
          key={s}
          role="tabpanel"
          id={`settings-panel-${s}`}
          aria-labelledby={`settings-tab-${s}`}
          hidden={side !== s}
        >
          {s === 'A' ? a : b}
        </div>
      ))}
    </div>
  );
}
