// Hands a file the page made to the browser's downloads.
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has its own copy once it starts; give it a moment before letting go.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** A file name made of what the export shows (scenario, step), safe on every file system. */
export function fileNameOf(...parts: (string | number | null | undefined | false)[]): string {
  return parts
    .filter((p) => p !== null && p !== undefined && p !== false && p !== '')
    .map((p) => String(p).replace(/[^A-Za-z0-9._-]+/g, '-'))
    .join('-')
    .replace(/^-+|-+$/g, '');
}
