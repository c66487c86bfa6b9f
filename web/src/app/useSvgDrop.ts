// Dropping an SVG or PNG that tlbscope exported anywhere on the page reopens the view it
// shows: the state link in the SVG's <metadata> (or the PNG's tEXt chunk) is followed, if it
// points into this same app. Drops a drop zone has taken (the Data view's CSV import) are
// left alone.
import { useEffect, useState } from 'react';
import { svgHeadBytes } from '../viz/exportSvg';
import { dropAnswer } from './dropLink';
import { LINK_CAP } from './linkCap';

/** Larger than any exported SVG with an embedded canvas image; refuses a huge file early. */
const MAX_SVG_BYTES = 64 * 1024 * 1024;

export function useSvgDrop(): { message: string; dismiss: () => void } {
  const [message, setMessage] = useState('');
  useEffect(() => {
    // A file input takes a drop itself (the sidebar's scenario and CSV pickers): leave those.
    const onInput = (e: DragEvent) =>
      e.target instanceof HTMLInputElement && e.target.type === 'file';
    const hasFiles = (e: DragEvent) =>
      !onInput(e) && Array.from(e.dataTransfer?.types ?? []).includes('Files');
    // Without this the browser would open a dropped file in place of the page.
    const onOver = (e: DragEvent) => {
      if (!hasFiles(e) || e.defaultPrevented) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e) || e.defaultPrevented) return;
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      const svg = file.type === 'image/svg+xml' || /\.svg$/i.test(file.name);
      const png = file.type === 'image/png' || /\.png$/i.test(file.name);
      if (!svg && !png) {
        setMessage(
          `${file.name} is not an SVG or PNG: drop a picture exported by tlbscope to reopen the view it shows (CSV files go in the Measured data view's import panel).`,
        );
        return;
      }
      if (file.size > MAX_SVG_BYTES) {
        setMessage(`${file.name} is ${file.size} bytes, too large for an SVG tlbscope exported.`);
        return;
      }
      // Of an SVG only its head is read: the link sits at the start, before any drawing.
      (png ? file : file.slice(0, svgHeadBytes(LINK_CAP))).arrayBuffer().then(
        (buffer) => {
          const to = dropAnswer(
            file.name,
            png,
            new Uint8Array(buffer),
            file.size,
            window.location.href,
          );
          if ('message' in to) setMessage(to.message);
          else window.location.assign(to.href);
        },
        () => setMessage(`${file.name} could not be read.`),
      );
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
  return { message, dismiss: () => setMessage('') };
}
