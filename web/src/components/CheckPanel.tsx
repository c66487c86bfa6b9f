// "Check all interleavings": the button (or why the scenario is too big for it), and in the
// counterexample view the verdict of A (and of B beside it: the fixed design's proof), the
// narration, and the counterexample's numbered steps to walk through.
import { useEffect, useRef } from 'react';
import type { CounterexampleView } from '../app/useCounterexample';
import type { RunState } from '../app/useRun';
import type { UrlState } from '../app/url';
import {
  CHECK_LIMITS,
  MAX_CHECK_CPUS,
  raceNote,
  staleWords,
  stepLine,
  tooBigToCheck,
  verdictLine,
} from '../model/check';
import type { Snapshot } from '../model/snapshot';
import { formatNs } from '../viz/scales';
import type { CheckReport } from '../sim/check';
import type { RunResult } from '../sim/run';
import { DocId, WithDocIds } from './DocId';

interface Props {
  url: UrlState;
  onUrl: (u: UrlState) => void;
  a: RunResult | null;
  stateA: RunState;
  stateB: RunState;
  view: CounterexampleView;
  /** The machine at the cursor (the step looked at): its stale translations are named. */
  snapshot: Snapshot | null;
  /** In a guided step's words: the verdicts, narration and stepping, without the step list. */
  compact?: boolean;
  /** Before a check: the button alone, its explanation a tooltip (while comparing). */
  brief?: boolean;
}

function Verdict({
  side,
  report,
  settings,
}: {
  side: string;
  report: CheckReport;
  settings: string;
}) {
  return (
    <div className={`verdict ${report.verdict}`} data-verdict={report.verdict} data-side={side}>
      <span className="verdict-side">
        {side}: {settings}
      </span>
      <strong>
        <WithDocIds text={verdictLine(report)} />
      </strong>
    </div>
  );
}

const settingsOf = (overrides: readonly string[]) =>
  overrides.join(' ') || 'the scenario’s own settings';

export function CheckPanel(props: Props) {
  const { url, onUrl, a, stateA, stateB, view, snapshot, compact, brief } = props;
  const list = useRef<HTMLOListElement>(null);
  // The step looked at stays in view in its list (scrolling the list only, not the page).
  useEffect(() => {
    const ol = list.current;
    const li = ol?.querySelector<HTMLElement>('[aria-current]')?.parentElement;
    if (ol && li) ol.scrollTop = li.offsetTop - ol.offsetTop - ol.clientHeight / 2;
  }, [view.current, view.cx]);
  if (!url.check) {
    const tooBig = a ? tooBigToCheck(a.info.settings) : 'the scenario has not run yet';
    const what = `Every order of this scenario's pending events (at most ${MAX_CHECK_CPUS} CPUs, ${CHECK_LIMITS.maxStates.toLocaleString('en-US')} states, ${CHECK_LIMITS.maxSteps} steps): "holds" or the shortest interleaving that breaks an invariant.`;
    return (
      <section className="check-panel" aria-label="Interleaving check">
        <button
          type="button"
          disabled={tooBig !== null}
          onClick={() => onUrl({ ...url, check: true, cxStep: null })}
          title={brief ? what : undefined}
        >
          Check all interleavings
        </button>{' '}
        {/* Comparing, the explanation is the button's tooltip: its two lines pushed B's last
            lane below a 1440×900 screen. */}
        {(tooBig || !brief) && (
          <span className="muted" data-check-why>
            {tooBig ? `Not available: ${tooBig}.` : what}
          </span>
        )}
      </section>
    );
  }
  const report = stateA.status === 'done' ? (stateA.result.check ?? null) : null;
  const reportB = url.compare && stateB.status === 'done' ? (stateB.result.check ?? null) : null;
  const fix = report?.fixes.find((f) => f.join(' ') !== url.overrides.join(' '));
  const { cx, current } = view;
  const step = cx && current !== null ? cx.steps[current - 1] : null;
  return (
    <section
      className={compact ? 'check-panel checking compact' : 'check-panel checking'}
      aria-label="Interleaving check"
    >
      {!compact && (
        <div className="check-actions">
          <button
            type="button"
            onClick={() => onUrl({ ...url, check: false, cxStep: null, compare: false })}
          >
            Back to the seeded run
          </button>
          {report && fix && !url.compare && (
            <button
              type="button"
              onClick={() => onUrl({ ...url, compare: true, overridesB: fix })}
              title="Check the fixed design as B, beside this one"
            >
              Compare with the fix: {fix.join(' ')}
            </button>
          )}
        </div>
      )}
      <div className="verdicts">
        {report && <Verdict side="A" report={report} settings={settingsOf(url.overrides)} />}
        {reportB && <Verdict side="B" report={reportB} settings={settingsOf(url.overridesB)} />}
      </div>
      {cx && step && (
        <div className="cx-body">
          <div>
            <p className="cx-narration" data-narration>
              <WithDocIds text={cx.narration} />
            </p>
            <div className="cx-nav">
              <button
                type="button"
                onClick={() => view.move(-1)}
                disabled={current === 1}
                title="Previous step (P)"
              >
                ← Step
              </button>
              <button
                type="button"
                onClick={() => view.move(1)}
                disabled={current === cx.steps.length}
                title="Next step (N)"
              >
                Step →
              </button>
              <span className="cx-current" aria-live="polite" data-current-step={step.n}>
                Step {step.n} of {cx.steps.length}: {stepLine(step)}
                {raceNote(step) && <em> ({raceNote(step)})</em>}
                {step.n === cx.violation_step && (
                  <strong>
                    {' '}
                    (breaks <DocId id={cx.invariant} />)
                  </strong>
                )}
              </span>
            </div>
            {snapshot && snapshot.time_ns === step.time_ns && (
              <p className="cx-stale" data-cx-stale>
                {staleWords(snapshot).length
                  ? `At ${formatNs(step.time_ns)}: ${staleWords(snapshot).join('; ')}.`
                  : `At ${formatNs(step.time_ns)} no CPU holds a stale translation.`}
              </p>
            )}
          </div>
          {!compact && (
            <ol ref={list} className="cx-steps" aria-label="The counterexample's steps">
              {cx.steps.map((s) => (
                <li
                  key={s.n}
                  value={s.n}
                  className={[
                    s.race !== null ? 'racing' : '',
                    s.n === cx.violation_step ? 'violation' : '',
                  ].join(' ')}
                >
                  <button
                    type="button"
                    aria-current={s.n === current ? 'step' : undefined}
                    data-step={s.n}
                    onClick={() => view.go(s.n)}
                  >
                    {stepLine(s)}
                    {s.race !== null && <span className="cx-race"> racing step {s.race}</span>}
                    {s.n === cx.violation_step && (
                      <span className="cx-breaks">
                        {' '}
                        {/* plain: a link inside the step's button would be two controls in one */}
                        breaks {cx.invariant}
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
