// A docs page as HTML: the markdown through `marked`, headings given the same anchors GitHub
// gives them (github-slugger), links to other served pages rewritten to their .html names, and
// links to repository files the site does not serve shown as their path, not as a dead link.
import { Marked, type Tokens } from 'marked';
import GithubSlugger from 'github-slugger';
import { plainText, resolveLink } from './links';
import type { Page } from './pages';

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Scripts none, styles and images from the site only: the page is text. */
const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Where `href`, written in `page.source`, points on the served site, or null if nowhere. */
function servedHref(page: Page, pages: Page[], href: string): string | null {
  const target = resolveLink(page.source, href);
  if (!target) return href;
  const hash = target.hash === null ? '' : `#${encodeURIComponent(target.hash)}`;
  if (target.path === page.source) return hash || '#';
  const other = pages.find((p) => p.source === target.path);
  if (other) return `${other.out}${hash}`;
  if (target.path.startsWith('docs/img/')) return target.path.slice('docs/'.length);
  return null;
}

/** The HTML of one page, with its title (its first heading). */
export function renderPage(md: string, page: Page, pages: Page[]): { title: string; html: string } {
  const slugger = new GithubSlugger();
  let title = '';
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline: (t: Tokens.Heading['tokens']) => string } }, t) {
        const text = plainText(t.tokens);
        if (!title) title = text;
        const id = slugger.slug(text);
        return `<h${t.depth} id="${escape(id)}">${this.parser.parseInline(t.tokens)}</h${t.depth}>\n`;
      },
      link(this: { parser: { parseInline: (t: Tokens.Link['tokens']) => string } }, t) {
        const inner = this.parser.parseInline(t.tokens);
        const href = servedHref(page, pages, t.href);
        if (href === null)
          return `<span class="repo-path" title="${escape(t.href)}">${inner}</span>`;
        const titleAttr = t.title ? ` title="${escape(t.title)}"` : '';
        return `<a href="${escape(href)}"${titleAttr}>${inner}</a>`;
      },
      image(t) {
        const src = servedHref(page, pages, t.href) ?? t.href;
        return `<img src="${escape(src)}" alt="${escape(t.text)}">`;
      },
    },
  });
  // An anchor line (`<a id="r8"></a>`) is a paragraph to markdown; unwrapped, it sits right
  // before its heading, so `#r8 + h3` is the entry a link lands on.
  const body = marked.parse(md, { async: false }).replace(/<p>(<a id="[^"]+"><\/a>)<\/p>/g, '$1');
  return { title: title || page.out, html: body };
}

/** The header's links, in reading order. */
const NAV: [string, string][] = [
  ['index.html', 'Docs'],
  ['guide.html', 'User guide'],
  ['cli.html', 'CLI'],
  ['model.html', 'Model'],
  ['authoring.html', 'Writing scenarios'],
  ['architecture.html', 'Architecture'],
  ['performance.html', 'Performance'],
];

/** The whole HTML document of a page. */
export function pageDocument(title: string, body: string, pages: Page[]): string {
  const nav = NAV.filter(([out]) => pages.some((p) => p.out === out))
    .map(([out, label]) => `<a href="${out}">${label}</a>`)
    .join(' ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${escape(title)} · tlbscope docs</title>
<link rel="stylesheet" href="docs.css">
</head>
<body>
<header><a class="home" href="../">tlbscope</a> <nav aria-label="Docs">${nav}</nav></header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The pages' one stylesheet: readable line length, light or dark as the reader's system is. */
export const DOCS_CSS = `:root { color-scheme: light dark; --fg: #1c1e21; --bg: #fdfdfc; --muted: #5d6470;
  --link: #0b57c2; --code: #f0f1f3; --rule: #d8dbe0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e6ea; --bg: #16181c; --muted: #a3a9b3; --link: #7fb2ff; --code: #24272d;
    --rule: #3a3f47; }
}
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.2rem; align-items: baseline;
  padding: .6rem 1.2rem; border-bottom: 1px solid var(--rule); }
header .home { font-weight: 700; }
header nav { display: flex; flex-wrap: wrap; gap: .9rem; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
a { color: var(--link); }
h1, h2, h3 { line-height: 1.25; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid var(--rule); padding-bottom: .2rem; }
h3 { margin-top: 1.8rem; }
:target + h3, h3:target, h2:target { background: color-mix(in srgb, var(--link) 12%, transparent); }
code, pre { font: 0.88em/1.45 ui-monospace, "SFMono-Regular", Menlo, monospace;
  background: var(--code); border-radius: 4px; }
code { padding: .1em .3em; }
pre { padding: .8rem 1rem; overflow-x: auto; }
pre code { padding: 0; background: none; }
table { border-collapse: collapse; display: block; overflow-x: auto; margin: 1rem 0; }
th, td { border: 1px solid var(--rule); padding: .3rem .55rem; text-align: left; vertical-align: top; }
img { max-width: 100%; height: auto; border: 1px solid var(--rule); }
.repo-path { font-style: italic; }
blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 3px solid var(--rule); color: var(--muted); }
`;
