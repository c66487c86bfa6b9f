// The kernel recordings shipped in content/recordings/ (made with bench/kit/trace.sh): served
// as files (fetched when chosen, not bundled into the page's JavaScript), with their
// provenance from the .source.json beside each.
const urls = import.meta.glob('../../../content/recordings/*.trace', {
  query: '?url',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const sources = import.meta.glob('../../../content/recordings/*.source.json', {
  import: 'default',
  eager: true,
}) as Record<string, RecordingSource>;

export interface RecordingSource {
  title: string;
  date: string;
  machine: string;
  kernel: string;
  recorder: string;
  format: string;
  command: string;
  events: string;
}

export interface ExampleRecording {
  id: string;
  file: string;
  url: string;
  source: RecordingSource | null;
}

export const EXAMPLE_RECORDINGS: ExampleRecording[] = Object.entries(urls)
  .map(([path, url]) => {
    const file = path.split('/').pop() as string;
    return {
      id: file.replace(/\.trace$/, ''),
      file,
      url,
      source: sources[`${path}.source.json`] ?? null,
    };
  })
  .sort((a, b) => a.id.localeCompare(b.id));

/** "Recorded on <machine>, kernel <k>, running `<command>` (<date>, <recorder>)." */
export function provenanceOf(s: RecordingSource): string {
  return `Recorded on ${s.machine}, kernel ${s.kernel}, running \`${s.command}\` (${s.date}, ${s.recorder}).`;
}
