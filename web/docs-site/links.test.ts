import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchors, checkLinks, formatBroken, headingIds, linksIn } from './links';
import { renderPage } from './render';
import { checkedFiles } from '../vite-docs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A throwaway repository holding `files`. */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tlbscope-docs-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('docs link check', () => {
  it('reports a broken link and a broken anchor with file:line', () => {
    const root = repo({
      'README.md': '# Top\n\nSee [the guide](docs/guide.md#embedding).\n',
      'docs/guide.md': [
        '# Guide',
        '',
        '## Embedding',
        '',
        'Back to the [README](../README.md#top), the [model](model.md#r8) and',
        '[a missing page](cli.md).',
        '',
        '```md',
        '[not a link, inside code](nowhere.md)',
        '```',
        '',
      ].join('\n'),
      'docs/model.md': '# Model\n\n<a id="r1"></a>\n\n### R1: a race\n',
    });
    const broken = checkLinks(root, ['README.md', 'docs/guide.md', 'docs/model.md']);
    expect(formatBroken(broken)).toBe(
      [
        'docs/guide.md:5: model.md#r8: no anchor #r8 in docs/model.md',
        'docs/guide.md:6: cli.md: no file docs/cli.md',
      ].join('\n'),
    );
  });

  it('gives headings the anchors GitHub gives them, and keeps explicit ones', () => {
    const md = '# A `code` title\n\n## Links & embeds\n\n## Links & embeds\n\n<a id="i3"></a>\n';
    expect(headingIds(md)).toEqual(['a-code-title', 'links--embeds', 'links--embeds-1']);
    expect([...anchors(md)]).toContain('i3');
  });

  it('renders the same anchors it checks, and links to served pages as .html', () => {
    const pages = [
      { source: 'docs/guide.md', out: 'guide.html' },
      { source: 'README.md', out: 'readme.html' },
    ];
    const { title, html } = renderPage(
      '# Guide\n\n## Links & embeds\n\n[top](../README.md#x), [notes](../sim-wasm/NOTES.md), [off](https://example.org)\n',
      pages[0],
      pages,
    );
    expect(title).toBe('Guide');
    expect(html).toContain('<h2 id="links--embeds">');
    expect(html).toContain('<a href="readme.html#x">top</a>');
    expect(html).toContain('<span class="repo-path" title="../sim-wasm/NOTES.md">notes</span>');
    expect(html).toContain('<a href="https://example.org">off</a>');
  });

  it('takes a newcomer from the README to the slide-deck recipe in one click', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(linksIn(readme).map((l) => l.href)).toContain(
      'docs/guide.md#embed-a-step-in-a-slide-deck',
    );
  });

  it("holds for this repository's docs and READMEs", () => {
    expect(formatBroken(checkLinks(repoRoot, checkedFiles(repoRoot)))).toBe('');
  });
});
