// Everything the CLI prints goes through here. Messages quote their input (file names, a
// scenario's title, a recording's lines), and a crafted file could otherwise recolour or
// retitle the terminal with escape sequences, or reorder what is shown with bidi overrides.
// Such characters are written as `\uXXXX`: readable, and still a valid escape inside the JSON
// the CLI prints, so machine output parses back to the same text.

// C0 except \t and \n (ESC among them), DEL, C1, and the bidi embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// The same and \t, \n: for a value quoted inside a one-line message.
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_INLINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (/** @type {string} */ c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Multi-line text with every control character but tab and newline made visible.
 * @param {string} s
 */
export function escapeControls(s) {
  return s.replace(UNSAFE, hex);
}

/**
 * A value from the input, for a one-line message: newlines and tabs are escaped too, so a file
 * name cannot start a line of its own.
 * @param {unknown} s
 */
export function quote(s) {
  return String(s).replace(UNSAFE_INLINE, hex);
}

/**
 * Writes to stdout; returns what `write` returns (false: wait for 'drain').
 * @param {string} s
 */
export function out(s) {
  return process.stdout.write(escapeControls(s));
}

/** @param {string} s */
export function err(s) {
  return process.stderr.write(escapeControls(s));
}

/** Whether stderr is a terminal (progress lines are only drawn there unless asked for). */
export function stderrIsTty() {
  return Boolean(process.stderr.isTTY);
}

/**
 * A progress report on stderr: on a terminal it redraws one line in place (the only control
 * sequences the CLI writes itself), elsewhere it appends a line.
 * @param {string} s
 * @param {{ done?: boolean }} [opts] done: the last report (ends the redrawn line)
 */
export function progress(s, { done = false } = {}) {
  if (stderrIsTty()) process.stderr.write(`\r\u001b[K${escapeControls(s)}${done ? '\n' : ''}`);
  else process.stderr.write(`${escapeControls(s)}\n`);
}

/** The stdout stream itself, for waiting on 'drain' and its errors (never for writing). */
export const stdoutStream = process.stdout;
