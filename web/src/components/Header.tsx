// The page header: views, and in the explorer the scenario, seed, compare and help buttons.
import type { ReactNode } from 'react';
import { scenarios } from '../content/scenarios';
import { writeUrl, type UrlState, type View } from '../app/url';
import { withModel } from '../app/modelVersion';
import type { ThemeChoice } from '../app/theme';
import './header.css';

interface Props {
  url: UrlState;
  scenarioId: string;
  onUrl: (u: UrlState) => void;
  onHelp: () => void;
  /** Page-wide tools shown before the help button (Copy link, Embed). */
  children?: ReactNode;
  talk: boolean;
  onTalk: () => void;
  /** The theme in effect: the link's, else the reader's choice. */
  theme: ThemeChoice;
  onTheme: (t: ThemeChoice) => void;
}

const VIEWS: [View, string][] = [
  ['home', 'Guide'],
  ['explore', 'Explorer'],
  ['data', 'Measured data'],
];

export function Header(props: Props) {
  const { url, scenarioId, onUrl, onHelp, talk, onTalk, theme, onTheme, children } = props;
  const explore = url.view === 'explore';
  return (
    <header className={explore ? 'explore' : undefined}>
      <h1>tlbscope</h1>
      <nav aria-label="Views" className="views">
        {VIEWS.map(([view, label]) => {
          const next = { ...url, view, scenario: view === 'explore' ? scenarioId : url.scenario };
          return (
            <a
              key={view}
              href={withModel(writeUrl(next)) || './'}
              aria-current={url.view === view ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                onUrl(next);
              }}
            >
              {label}
            </a>
          );
        })}
      </nav>
      {explore && (
        <div className="header-run">
          <label>
            Scenario{' '}
            <select
              value={scenarioId}
              onChange={(e) =>
                onUrl({
                  ...url,
                  scenario: e.target.value,
                  custom: null,
                  step: null,
                  overrides: [],
                  overridesB: [],
                })
              }
            >
              {scenarios.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.id}
                </option>
              ))}
            </select>
          </label>
          <label>
            Seed{' '}
            <input
              type="number"
              min={0}
              value={url.seed}
              onChange={(e) => {
                const seed = Number(e.target.value);
                if (Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32) onUrl({ ...url, seed });
              }}
            />
          </label>
          <button
            type="button"
            aria-pressed={url.compare}
            onClick={() => onUrl({ ...url, compare: !url.compare })}
          >
            Compare A/B
          </button>
        </div>
      )}
      {children}
      <select
        className="theme-pick"
        aria-label="Theme"
        title="Colour theme, remembered on this browser (M)"
        value={theme}
        onChange={(e) => onTheme(e.target.value as ThemeChoice)}
      >
        <option value="system">◐ System</option>
        <option value="light">☀ Light</option>
        <option value="dark">☾ Dark</option>
      </select>
      <button
        type="button"
        className="talk-button"
        aria-pressed={talk}
        title="Talk mode: large type for a projector (T)"
        onClick={onTalk}
      >
        Talk mode
      </button>
      {/* The docs are served beside the app (web/vite-docs.ts); the offline file, opened from
          disk, has none. */}
      {location.protocol !== 'file:' && (
        <a className="docs-link" href="docs/index.html" title="User guide, CLI and model reference">
          Docs
        </a>
      )}
      <button
        type="button"
        className="help-button"
        aria-label="Keyboard shortcuts"
        onClick={onHelp}
      >
        ?
      </button>
    </header>
  );
}
