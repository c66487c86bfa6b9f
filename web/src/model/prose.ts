// The small prose format of scenario narration: paragraphs separated by blank lines, `code`
// spans and **bold**. Parsed into tokens (never HTML), so scenario text can't inject markup.

export type Inline = { kind: 'text' | 'code' | 'bold'; text: string };

/** Paragraphs of inline tokens. */
export function parseProse(text: string): Inline[][] {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean)
    .map(parseInline);
}

function parseInline(p: string): Inline[] {
  const out: Inline[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (let m = re.exec(p); m; m = re.exec(p)) {
    if (m.index > last) out.push({ kind: 'text', text: p.slice(last, m.index) });
    out.push(m[1] !== undefined ? { kind: 'code', text: m[1] } : { kind: 'bold', text: m[2] });
    last = m.index + m[0].length;
  }
  if (last < p.length) out.push({ kind: 'text', text: p.slice(last) });
  return out;
}
