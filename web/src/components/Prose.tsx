// Scenario prose (paragraphs, `code`, **bold**) as React elements: never raw HTML.
import { Fragment } from 'react';
import { parseProse } from '../model/prose';

export function Prose({ text }: { text: string }) {
  return (
    <>
      {parseProse(text).map((para, i) => (
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
      ))}
    </>
  );
}
