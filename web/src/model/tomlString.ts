// A name quoted as a TOML basic string, for the comments of the costs files the CLI writes
// (`fit --out`, `fit-recording --out`): a file name may hold a newline (which would end the
// comment it is quoted in and start a table of its own), other control characters TOML forbids
// there, or bidi controls that would show something else than is there.

export function tomlString(s: string): string {
  const escaped = s.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\\"\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) =>
      c === '\\' || c === '"' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}
