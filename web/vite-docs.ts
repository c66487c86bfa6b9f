// The docs served with the site: docs/*.md (and the README) rendered to dist/docs/<name>.html
// with docs/img/ beside them, the same pages from the dev server, and a link check that fails
// the build on a relative link or #anchor that does not resolve in any docs page or README.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { checkLinks, formatBroken } from './docs-site/links';
import { docImages, docPages } from './docs-site/pages';
import { DOCS_CSS, pageDocument, renderPage } from './docs-site/render';

/** The markdown files whose links the build checks: every served page. */
export function checkedFiles(repo: string): string[] {
  return docPages(repo).map((p) => p.source);
}

/** The served docs: output name (under docs/) → its bytes. */
export function docsFiles(repo: string): Map<string, string | Uint8Array> {
  const pages = docPages(repo);
  const out = new Map<string, string | Uint8Array>();
  for (const page of pages) {
    const { title, html } = renderPage(readFileSync(join(repo, page.source), 'utf8'), page, pages);
    out.set(page.out, pageDocument(title, html, pages));
  }
  out.set('docs.css', DOCS_CSS);
  for (const img of docImages(repo))
    out.set(img.slice('docs/'.length), readFileSync(join(repo, img)));
  return out;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
};

export function docs(repo: string): Plugin {
  let serving = false;
  return {
    name: 'tlbscope-docs',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    buildStart() {
      // The dev server warns per page instead (below): a link being written must not stop it.
      if (serving) return;
      for (const f of checkedFiles(repo)) this.addWatchFile(join(repo, f));
      const broken = checkLinks(repo, checkedFiles(repo));
      if (broken.length) this.error(`broken links in the docs:\n${formatBroken(broken)}`);
    },
    generateBundle() {
      for (const [name, source] of docsFiles(repo)) {
        this.emitFile({ type: 'asset', fileName: `docs/${name}`, source });
      }
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/docs\/([^?#]*)/.exec(req.url ?? '');
        if (!m) return next();
        const broken = checkLinks(repo, checkedFiles(repo));
        if (broken.length) server.config.logger.warn(formatBroken(broken));
        const name = decodeURIComponent(m[1]) || 'index.html';
        const body = docsFiles(repo).get(name);
        if (body === undefined) return next();
        res.setHeader(
          'Content-Type',
          TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream',
        );
        res.end(body);
      });
    },
  };
}
