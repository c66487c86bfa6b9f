// ?embed: the diagram alone for someone else's page or slide: the timeline(s), their legend,
// a one-line caption saying what it shows and where the numbers come from, and minimal step
// controls. It fills the frame it is given (FitBox) and never takes focus by itself, so the
// host page keeps its keys until the viewer clicks into the diagram.
import { useMemo } from 'react';
import type { CounterexampleView } from '../../app/useCounterexample';
import type { Explorer } from '../../app/useExplorer';
import type { UrlState } from '../../app/url';
import { initiatorOf } from '../../model/ipis';
import type { RunResult } from '../../sim/run';
import { ErrorBoundary } from '../ErrorBoundary';
import { Legend } from '../Legend';
import { RunProblem } from '../RunProblem';
import { Timeline } from '../Timeline';
import { FitBox, FitLine } from './FitBox';
import { lanesShown, stretchedLanes } from './squeeze';
import { useFrameFit } from './useFrameFit';
import './embed.css';

const subjects = new WeakMap<readonly string[], ReadonlySet<string>>();
/** One set per step's lens list, so the timeline sees the same value on every render. */
function lensSubjectOf(kinds: readonly string[] | undefined): ReadonlySet<string> | undefined {
  if (!kinds) return undefined;
  let s = subjects.get(kinds);
  if (!s) subjects.set(kinds, (s = new Set(kinds)));
  return s;
}

/**
 * The least the diagram is scaled by, so that its smallest text reaches 10 CSS px, the least a
 * slide's audience reads: the timeline's labels are 10 px (embed.css raises the smaller ones)
 * but for the counts inside the tlb_gen chart's lag bars, 8 px. Below it the embed shows less
 * instead (squeeze.ts).
 */
const minScale = (generations: boolean) => (generations ? 10 / 8 : 1);

interface Props {
  x: Explorer;
  url: UrlState;
  fileName: string;
  /** The same view, full page, for "open in tlbscope". */
  fullLink: string;
  /** A `view=counterexample` link's counterexample: its numbered steps on A's lanes. */
  cx: CounterexampleView;
}

export function EmbedView({ x, url, fileName, fullLink, cx }: Props) {
  const { a, b, guide } = x;
  const steps = cx.cx?.steps.length ?? 0;
  const cpus = a?.trace.cpus ?? 1;
  const initiator = a ? initiatorOf(a.trace) : -1;
  const subject = guide.frame?.cpus;
  const open = stretchedLanes(cpus, subject, url.compare ? 2 : 1);
  const fit = useFrameFit(`${guide.index}|${cx.current}|${url.compare}`, cpus, open);
  const { squeeze, level } = fit;
  const focus = useMemo(
    () => lanesShown(cpus, subject, initiator, squeeze.lanes),
    [cpus, subject, initiator, squeeze.lanes],
  );
  const timeline = (r: RunResult, side: 'A' | 'B', overrides: readonly string[]) => (
    <ErrorBoundary label={`timeline ${side}`} resetKey={r.trace.version}>
      <Timeline
        trace={r.trace}
        label={
          url.compare ? `${side}: ${overrides.join(' ') || 'as the scenario says'}` : undefined
        }
        view={x.view}
        fullExtent={x.fullExtent}
        cursor={x.cursor}
        onCursorChange={x.setCursor}
        selected={side === 'A' ? x.selected : x.selectedB}
        onSelect={side === 'A' ? x.selectRow : x.selectRowB}
        highlight={side === 'A' ? (cx.highlight ?? guide.highlight) : undefined}
        steps={side === 'A' ? cx.marks : null}
        differs={x.differing ? (side === 'A' ? x.differing.a : x.differing.b) : undefined}
        matched={side === 'A' ? x.matchedA : x.matchedB}
        focus={focus}
        generations={squeeze.generations}
        trackHeight={fit.track}
        lens={side === 'A' && guide.lens.length ? guide.lens : null}
        lensSubject={side === 'A' ? lensSubjectOf(guide.step?.lens) : undefined}
        magnify={guide.step?.magnify}
        spacing={x.spacing}
        initiator={side === 'A' ? initiator : initiatorOf(r.trace)}
        onRendered={() => x.markRendered(r)}
      />
    </ErrorBoundary>
  );
  const machine = a && typeof a.summary.machine === 'string' ? a.summary.machine : 'default';
  const settings = url.overrides.join(' ');
  return (
    <div
      className="embed"
      data-squeeze={level}
      data-step={guide.index === null ? '' : String(guide.index + 1)}
    >
      <RunProblem label="A" state={x.runA.state} file={fileName} />
      {url.compare && <RunProblem label="B" state={x.runB.state} file={fileName} />}
      {a && (
        <>
          <FitLine className="embed-caption" minPx={10}>
            <strong data-embed-title>{guide.step ? guide.step.title : a.title}</strong>
            <span className="embed-wide"> · {fileName.replace(/^.*\//, '')}</span>
            <span className="embed-wide"> · simulated by the tlbscope model</span>
            <span className="embed-wide">
              {' '}
              ({machine}
              {settings ? `, ${settings}` : ''}, seed {url.seed})
            </span>
            <span className="embed-narrow"> · simulated</span>
            <span>, not measured · </span>
            <a href={fullLink} target="_blank" rel="noreferrer">
              <span className="embed-wide">open in </span>tlbscope ↗
            </a>
          </FitLine>
          <FitBox
            className="embed-diagram"
            minScale={minScale(squeeze.generations)}
            onOverflow={fit.overflow}
            onRoom={fit.room}
            content={level}
          >
            {squeeze.legend && (
              <Legend
                trace={a.trace}
                also={b?.trace}
                steps={cx.marks}
                magnify={guide.step?.magnify}
              />
            )}
            {timeline(a, 'A', url.overrides)}
            {b && timeline(b, 'B', url.overridesB)}
          </FitBox>
          <nav className="embed-controls" aria-label="Steps">
            {steps > 0 && cx.current !== null && (
              <>
                <button
                  type="button"
                  onClick={() => cx.move(-1)}
                  disabled={cx.current <= 1}
                  aria-label="Previous step of the counterexample"
                >
                  ← Step
                </button>
                <span className="embed-step" aria-live="polite" data-embed-cx-step={cx.current}>
                  Step {cx.current} of {steps}
                </span>
                <button
                  type="button"
                  onClick={() => cx.move(1)}
                  disabled={cx.current >= steps}
                  aria-label="Next step of the counterexample"
                >
                  Step →
                </button>
              </>
            )}
            {guide.steps.length > 0 && (
              <>
                <button
                  type="button"
                  onClick={() =>
                    guide.go(guide.index === null ? guide.steps.length - 1 : guide.index - 1)
                  }
                  disabled={guide.index === 0}
                >
                  ← Previous
                </button>
                <span className="embed-step" aria-live="polite">
                  {guide.index === null
                    ? `Sandbox (${guide.steps.length} steps)`
                    : `Step ${guide.index + 1} of ${guide.steps.length}`}
                </span>
                <button
                  type="button"
                  onClick={() =>
                    guide.go(
                      guide.index === null
                        ? 0
                        : guide.index + 1 < guide.steps.length
                          ? guide.index + 1
                          : null,
                    )
                  }
                >
                  Next →
                </button>
              </>
            )}
            <button type="button" aria-pressed={x.playing} onClick={() => x.setPlaying((p) => !p)}>
              {x.playing ? '❚❚ Pause' : '▶ Play'}
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
