// The built site as a static host serves it: dist/ with the headers of dist/_headers applied
// (as Cloudflare Pages reads them), by a small server here. The page must work under the
// header CSP with no violation, hashed assets must be cached as immutable and the pages not.
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { expect, test } from './fixtures';

const DIST = resolve('dist');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** `_headers`: a path pattern line, then its indented `Name: value` lines. */
function parseHeaders(text: string): { pattern: string; headers: [string, string][] }[] {
  const rules: { pattern: string; headers: [string, string][] }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) rules.push({ pattern: line.trim(), headers: [] });
    else {
      const at = line.indexOf(':');
      rules.at(-1)?.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return rules;
}

const matches = (pattern: string, path: string) =>
  pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

let server: Server;
let origin: string;

test.beforeAll(async () => {
  const rules = parseHeaders(readFileSync(join(DIST, '_headers'), 'utf8'));
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(DIST, path));
    if (!file.startsWith(DIST)) return void res.writeHead(403).end();
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      for (const rule of rules.filter((r) => matches(r.pattern, path)))
        for (const [name, value] of rule.headers) res.setHeader(name, value);
      res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
      res.writeHead(200).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((done) => server.close(() => done())));

test('the site served with its _headers runs under the header CSP and caches by hash', async ({
  page,
}) => {
  const cache = new Map<string, string | null>();
  let pageCsp: string | null = null;
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    cache.set(path, r.headers()['cache-control'] ?? null);
    if (path === '/') pageCsp = r.headers()['content-security-policy'] ?? null;
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

  await page.goto(`${origin}/?scenario=x86-munmap-shootdown`);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'idle', { timeout: 15_000 });
  // The simulator ran (WASM compiled, worker started) under the policy the host sent.
  await expect(page.locator('.timeline svg [data-kind="IpiHandler"]')).toHaveCount(3);
  expect(pageCsp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(
    await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
  expect(errors).toEqual([]);

  expect(cache.get('/')).toBe('no-cache');
  const assets = [...cache].filter(([p]) => p.startsWith('/assets/'));
  // The app's script, its stylesheet, the simulator's worker and the WASM at least.
  expect(assets.map(([p]) => extname(p)).sort()).toEqual(
    expect.arrayContaining(['.css', '.js', '.wasm']),
  );
  for (const [path, value] of assets) {
    expect(path).toMatch(/-[\w-]{8}\.\w+$/);
    expect(value, path).toBe('public, max-age=31536000, immutable');
  }
  // A reload revalidates the page but takes every asset from the cache.
  const reloaded = await page.request.get(`${origin}/index.html`);
  expect(reloaded.headers()['cache-control']).toBe('no-cache');
});
