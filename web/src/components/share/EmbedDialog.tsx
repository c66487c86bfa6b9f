// The <iframe> snippet that puts the current view on someone else's page (README "Embedding").
import { useEffect, useRef, useState } from 'react';
import { copyText } from '../../app/clipboard';

export function embedSnippet(src: string): string {
  return `<iframe src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" width="960" height="540" style="border:0" title="tlbscope diagram" loading="lazy"></iframe>`;
}

export function EmbedDialog({ src, onClose }: { src: string; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  const snippet = embedSnippet(src);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="dialog embed-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="embed-title"
        tabIndex={-1}
        ref={ref}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id="embed-title">Embed this view</h2>
        <p>
          Paste this into a page or a slide. It shows the diagram alone and fills the frame; add{' '}
          <code>&amp;origin=https://your.site</code> to drive it from that page (see the{' '}
          <a href="docs/guide.html#host-api" target="_blank" rel="noreferrer">
            host API
          </a>
          ).
        </p>
        <label htmlFor="embed-snippet">Snippet</label>
        <textarea id="embed-snippet" readOnly rows={4} value={snippet} />
        <p>
          <button type="button" onClick={async () => setCopied(await copyText(snippet))}>
            Copy snippet
          </button>{' '}
          <a href={src} target="_blank" rel="noreferrer">
            Open the embed alone
          </a>{' '}
          <span role="status">{copied ? 'Snippet copied' : ''}</span>
        </p>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
