// "Copy link" and "Embed": the view leaves the tab as a URL or as an <iframe> snippet.
import { useEffect, useRef, useState } from 'react';
import { copyText } from '../../app/clipboard';
import { EmbedDialog } from './EmbedDialog';

interface Props {
  /** The absolute link to the view as it is now. */
  link: () => string;
  /** The absolute link to the same view inside an embed. */
  embedLink: () => string;
  /** Bumped by the keyboard shortcut to copy without a click. */
  copyRequest: number;
}

export function ShareButtons({ link, embedLink, copyRequest }: Props) {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [embed, setEmbed] = useState<string | null>(null);
  const seen = useRef(copyRequest);
  const copy = async () => {
    const text = link();
    const ok = await copyText(text);
    setStatus({ ok, text });
    if (ok) setTimeout(() => setStatus((s) => (s?.text === text ? null : s)), 2500);
  };
  const copyRef = useRef(copy);
  copyRef.current = copy;
  useEffect(() => {
    if (copyRequest === seen.current) return;
    seen.current = copyRequest;
    void copyRef.current();
  }, [copyRequest]);
  return (
    <div className="share">
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>
      <button type="button" onClick={() => setEmbed(embedLink())}>
        Embed
      </button>
      <span role="status" className="share-status">
        {status?.ok && 'Link copied'}
      </span>
      {status && !status.ok && (
        <div className="share-fallback">
          <label>
            The browser would not copy; select and copy this link:{' '}
            <input readOnly value={status.text} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" onClick={() => setStatus(null)}>
            Close
          </button>
        </div>
      )}
      {embed && <EmbedDialog src={embed} onClose={() => setEmbed(null)} />}
    </div>
  );
}
