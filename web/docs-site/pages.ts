// Which markdown files the site serves as docs pages, and where each lands. The docs are flat:
// every page is dist/docs/<name>.html, so a link between two pages is just the other's name.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One served page: its source (repository-relative, `/`-separated) and its output name. */
export interface Page {
  source: string;
  out: string;
}

/**
 * docs/*.md, plus the README as `readme.html` and the scenario authors' guide as
 * `authoring.html`, so that the docs' links to them work on the site too.
 */
export function docPages(repo: string): Page[] {
  const dir = join(repo, 'docs');
  const docs = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => ({ source: `docs/${f}`, out: f.replace(/\.md$/, '.html') }))
    : [];
  return [
    ...docs,
    { source: 'README.md', out: 'readme.html' },
    { source: 'content/README.md', out: 'authoring.html' },
  ];
}

/** docs/img/'s files, copied as they are to dist/docs/img/. */
export function docImages(repo: string): string[] {
  const dir = join(repo, 'docs', 'img');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort()
        .map((f) => `docs/img/${f}`)
    : [];
}
