// A step's predict-then-reveal question as a real choice: the reader commits to one option,
// then the page shows what the run says (each option's value) and why. Buttons, so the keys
// that walk the steps (← / →) stay theirs; Tab and Enter choose.
import { useId, useState } from 'react';
import { isTimeMeasure, type Reveal } from '../content/choices';
import { formatNs } from '../viz/scales';
import { Prose } from './Prose';

interface Props {
  question: string;
  answer: string;
  reveal: Reveal;
}

export function Predict({ question, answer, reveal }: Props) {
  const [picked, setPicked] = useState<number | null>(null);
  const id = useId();
  const { options } = reveal;
  const right = reveal.answer;
  const shown = (v: number | string, measure: string) =>
    typeof v === 'string' ? 'no value' : isTimeMeasure(measure) ? formatNs(v) : String(v);
  return (
    <div className="question predict" role="group" aria-labelledby={id}>
      <p id={id}>
        {/^predict\b/i.test(question) ? null : <strong>Predict: </strong>}
        {question}
      </p>
      <div className="choices">
        {options.map((o, i) => (
          <button
            key={i}
            type="button"
            aria-pressed={picked === i}
            aria-disabled={picked !== null}
            data-choice={i}
            className={
              picked === null ? undefined : i === right ? 'right' : i === picked ? 'wrong' : ''
            }
            onClick={() => picked === null && setPicked(i)}
          >
            {o.label}
          </button>
        ))}
      </div>
      {picked !== null && (
        <div className="reveal" aria-live="polite">
          <p>
            <strong>
              {right === null
                ? 'The run does not decide this one.'
                : picked === right
                  ? 'Right.'
                  : 'Not this time.'}
            </strong>{' '}
            {right !== null && (
              <>
                The run says <strong data-answer>{options[right].label}</strong>
                {reveal.by === 'value' ? ': ' : '.'}
              </>
            )}
            {reveal.by === 'value'
              ? `${options.map((o) => `${o.label} ${shown(o.value, o.measure)}`).join(' · ')}.`
              : null}
          </p>
          {reveal.by === 'condition' && (
            <p className="measured">
              From the run:{' '}
              {[...new Map(options.map((o) => [o.measure, o])).values()].map((o, i) => (
                <span key={i}>
                  {i > 0 && ' · '}
                  <code>{o.measure}</code> = {shown(o.value, o.measure)}
                </span>
              ))}
              .
            </p>
          )}
          <Prose text={answer} />
        </div>
      )}
    </div>
  );
}
