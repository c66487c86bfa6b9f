// Scenario prose (paragraphs, `code`, **bold**) as React elements: never raw HTML.
import { Fragment } from 'react';
import { parseProse, type Inline } from '../model/prose';

/**
 * `folded`: only the first paragraph shows, the rest behind "More"; a long scenario
 * description otherwise pushes the timeline below the first screen of a laptop or projector.
 */
export function Prose({ text, folded = false }: { text: string; folded?: boolean }) {
  const paras = parseProse(text);
  if (!folded || paras.length < 2) return <>{paras.map(paragraph)}</>;
  const more = paras.length - 1;
  return (
    <>
      {paragraph(paras[0], 0)}
      <details className="prose-more">
        <summary>{`More about this scenario (${more} more paragraph${more === 1 ? '' : 's'})`}</summary>
        {paras.slice(1).map((p, i) => paragraph(p, i + 1))}
      </details>
    </>
  );
}

function paragraph(para: Inline[], i: number) {
  return (
    <p key={i}>
      {para.map((t, j) => (
        <Fragment key={j}>
          {t.kind === 'code' ? (
            <code>{t.text}</code>
          ) : t.kind === 'bold' ? (
            <strong>{t.text}</strong>
          ) : (
            t.text
          )}
        </Fragment>
      ))}
    </p>
  );
}
