// The guided step: its words, a predict-then-reveal question, and the way to the previous /
// next step or the free sandbox. What a step sets beside the timeline (a measured table, a
// recording) is drawn with the figure, where there is room for it: see ExplorerView.
import type { ReactNode } from 'react';
import { revealChoice } from '../content/choices';
import type { ClaimRun } from '../content/claims';
import { shippedDatasets } from '../content/datasets';
import { WithDocIds } from './DocId';
import { Predict } from './Predict';
import { Prose } from './Prose';
import type { Step } from '../sim/scenario';

interface Props {
  steps: readonly Step[];
  /** 0-based index of the step shown. */
  index: number;
  /** A problem the simulator found with this step (file, line, field), or ''. */
  problem: string;
  file: string;
  onGo: (index: number | null) => void;
  /** The runs shown (A, and B in a comparison): a question with choices is answered from them. */
  runs: { A: ClaimRun; B?: ClaimRun } | null;
  /** What the step's run adds to its words (a check step's verdict and counterexample). */
  children?: ReactNode;
}

export function Narration({ steps, index, problem, file, onGo, runs, children }: Props) {
  const step = steps[index];
  const last = index === steps.length - 1;
  // The buttons sit under the narration, so whoever clicks them has scrolled down to them; the
  // next step opens at the top, where its words and its timeline are laid out to be seen
  // together (as ← / → leave them), not at the summary under the diagram.
  const goAndShow = (i: number | null) => {
    onGo(i);
    if (i !== null) window.scrollTo({ top: 0 });
  };
  return (
    <section className="narration" aria-label="Guided step" aria-live="polite">
      <p className="step-count">
        Step {index + 1} of {steps.length}
      </p>
      <h2 data-step-title>
        <WithDocIds text={step.title} />
      </h2>
      <div className="narration-body">
        {children}
        <Prose text={step.text} />
        {step.question && step.answer && step.choices.length > 0 && runs && (
          <Predict
            key={index}
            question={step.question}
            answer={step.answer}
            reveal={revealChoice(step, runs)}
          />
        )}
        {step.question && !(step.choices.length > 0 && runs) && (
          <details className="question" key={`${index}-q`}>
            <summary>
              {/^predict\b/i.test(step.question) ? null : <strong>Predict: </strong>}
              {step.question} <span className="muted">(reveal)</span>
            </summary>
            <p>{step.answer}</p>
          </details>
        )}
      </div>
      {problem && (
        <div role="alert" className="error-panel">
          <h3>This step does not fit its run</h3>
          <pre>
            {file}: {problem}
          </pre>
        </div>
      )}
      <nav className="step-nav" aria-label="Steps">
        <button type="button" onClick={() => goAndShow(index - 1)} disabled={index === 0}>
          ← Previous step
        </button>
        <button type="button" onClick={() => goAndShow(last ? null : index + 1)}>
          {last ? 'Free sandbox →' : 'Next step →'}
        </button>
      </nav>
    </section>
  );
}

/** The measured rows of one shipped dataset, with where they come from. */
export function MeasuredTable({ id }: { id: string }) {
  const ds = shippedDatasets.find((d) => d.file === `${id}.csv`);
  if (!ds) return <p className="muted">Measured dataset {id} is not shipped.</p>;
  return (
    <figure className="measured-table">
      <figcaption>Measured ({ds.file})</figcaption>
      <table>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Metric</th>
            <th scope="col">Value</th>
            <th scope="col">Machine</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {ds.measurements.map((m, i) => (
            <tr key={i}>
              <td>
                <code>{m.variant}</code>
              </td>
              <td>{m.metric}</td>
              <td>
                {m.value} {m.unit}
                {m.stddev !== null ? ` ± ${m.stddev}` : ''}
                {m.runs !== null ? ` (${m.runs} runs)` : ''}
              </td>
              <td>{m.machine}</td>
              <td>{m.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
