// Where a link in a docs page or the README points, which anchors a markdown file offers, and
// the check that every relative link and #anchor resolves. The renderer and the checker share
// these, so a page the check passes renders with every link working.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Lexer, type Token, type Tokens } from 'marked';

/** A link's target inside the repository: a repository-relative path and an optional anchor. */
export interface Target {
  path: string;
  hash: string | null;
}

/** `href` as written in `from` (repository-relative), or null for a link off the repository. */
export function resolveLink(from: string, href: string): Target | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return null;
  const at = href.indexOf('#');
  const pathPart = at < 0 ? href : href.slice(0, at);
  const hash = at < 0 ? null : decodeURIComponent(href.slice(at + 1));
  const clean = decodeURIComponent(pathPart.split('?')[0]);
  if (clean === '') return { path: from, hash };
  const path = clean.startsWith('/')
    ? clean.slice(1)
    : posix.normalize(posix.join(posix.dirname(from), clean));
  return { path: path.replace(/\/$/, ''), hash };
}

/** The plain text of inline tokens, as a heading's anchor is made from it. */
export function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) => {
      if (t.type === 'html') return '';
      if ('tokens' in t && t.tokens && t.tokens.length) return plainText(t.tokens);
      return 'text' in t ? String(t.text) : '';
    })
    .join('');
}

/** The anchors of each heading of `md`, in order, as GitHub and the docs pages make them. */
export function headingIds(md: string): string[] {
  const slugger = new GithubSlugger();
  const ids: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'heading') ids.push(slugger.slug(plainText((t as Tokens.Heading).tokens)));
      else if ('tokens' in t && t.tokens && t.type !== 'paragraph') walk(t.tokens);
    }
  };
  walk(new Lexer().lex(md));
  return ids;
}

/** Every anchor `md` offers: its headings' and the explicit `<a id="…">` ones. */
export function anchors(md: string): Set<string> {
  const out = new Set(headingIds(md));
  for (const line of proseLines(md)) {
    for (const m of line.text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

/** `md`'s lines outside fenced code, each without its inline code spans, with its number. */
function proseLines(md: string): { n: number; text: string }[] {
  const out: { n: number; text: string }[] = [];
  let fence: string | null = null;
  md.split('\n').forEach((line, i) => {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) out.push({ n: i + 1, text: line.replace(/(`+)[^`]*?\1/g, '') });
  });
  return out;
}

/** Every link target written in `md` (markdown links and images, reference definitions, HTML). */
export function linksIn(md: string): { line: number; href: string }[] {
  const out: { line: number; href: string }[] = [];
  for (const { n, text } of proseLines(md)) {
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ line: n, href: m[1] });
    }
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
    if (def) out.push({ line: n, href: def[1] });
    for (const m of text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) {
      out.push({ line: n, href: m[1] });
    }
  }
  return out;
}

/** One broken link: where it is written and what is wrong. */
export interface Broken {
  file: string;
  line: number;
  href: string;
  problem: string;
}

/** `file:line: problem` lines, as the build prints them. */
export function formatBroken(broken: Broken[]): string {
  return broken.map((b) => `${b.file}:${b.line}: ${b.href}: ${b.problem}`).join('\n');
}

/**
 * Every relative link and #anchor of `files` (repository-relative markdown files) that does not
 * resolve: a missing file, or an anchor its markdown target does not offer.
 */
export function checkLinks(repo: string, files: string[]): Broken[] {
  const cache = new Map<string, Set<string>>();
  const anchorsOf = (path: string) => {
    let a = cache.get(path);
    if (!a) {
      a = anchors(readFileSync(join(repo, path), 'utf8'));
      cache.set(path, a);
    }
    return a;
  };
  const broken: Broken[] = [];
  for (const file of files) {
    const md = readFileSync(join(repo, file), 'utf8');
    for (const { line, href } of linksIn(md)) {
      const target = resolveLink(file, href);
      if (!target) continue;
      const full = join(repo, target.path);
      if (target.path.startsWith('..') || !existsSync(full)) {
        broken.push({ file, line, href, problem: `no file ${target.path}` });
      } else if (
        target.hash &&
        target.path.endsWith('.md') &&
        statSync(full).isFile() &&
        !anchorsOf(target.path).has(target.hash)
      ) {
        broken.push({ file, line, href, problem: `no anchor #${target.hash} in ${target.path}` });
      }
    }
  }
  return broken;
}
