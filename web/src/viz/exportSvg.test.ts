// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  composeDiagram,
  inlineStyles,
  layoutLegend,
  reopenTarget,
  serializeDiagram,
  stateLinkOf,
  svgStateLink,
  SVG_NS,
  wrapText,
  type DiagramParts,
} from './exportSvg';

const LINK = 'http://127.0.0.1:4173/tlbscope/demo/?scenario=x86-lazy-tlb&step=2&set=pcid%3Don';

function parts(over: Partial<DiagramParts> = {}): DiagramParts {
  const body = document.createElementNS(SVG_NS, 'g');
  const mark = document.createElementNS(SVG_NS, 'rect');
  mark.setAttribute('data-row', '7');
  mark.setAttribute('width', '40');
  mark.setAttribute('height', '8');
  body.appendChild(mark);
  return {
    title: 'Lazy TLB: a kernel thread on a borrowed mm',
    subtitle: 'Step 2 of 6: the idle CPU is skipped',
    legend: [
      { label: 'task running', swatch: 'rect', color: '#c9d6e3' },
      { label: 'IPI sent → handled', swatch: 'line', color: '#1d232b' },
      { label: 'csd unlocked (ack)', swatch: 'line', color: '#2e8b57', dash: '3 2' },
    ],
    caption:
      'Predicted by the tlbscope model with the default machine preset, not measured. Scenario x86-lazy-tlb, seed 1, pcid=on.',
    link: LINK,
    width: 640,
    body: { height: 120, layers: [body] },
    colors: { background: '#ffffff', text: '#000000', muted: '#333333' },
    ...over,
  };
}

const reparse = (text: string) =>
  new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;

describe('composeDiagram', () => {
  it('writes a standalone SVG with title, legend, diagram, caption and the state link', () => {
    const text = serializeDiagram(composeDiagram(document, parts()));
    expect(text.startsWith('<?xml')).toBe(true);
    const svg = reparse(text);
    expect(svg.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(svg.namespaceURI).toBe(SVG_NS);
    const texts = Array.from(svg.getElementsByTagName('text')).map((t) => t.textContent);
    expect(texts).toContain('Lazy TLB: a kernel thread on a borrowed mm');
    expect(texts).toContain('Step 2 of 6: the idle CPU is skipped');
    expect(texts).toEqual(expect.arrayContaining(['task running', 'csd unlocked (ack)']));
    expect(texts.join(' ')).toContain('default machine preset, not measured');
    expect(svg.querySelector('rect[data-row="7"]')).not.toBeNull();
    expect(svg.querySelector('title')?.textContent).toBe(parts().title);
    expect(stateLinkOf(text)).toBe(LINK);
    // From the file's bytes too, with megabytes of drawing after the metadata left unread.
    const padded = text.replace('</svg>', `<!--${'x'.repeat(5_000_000)}--></svg>`);
    const bytes = new TextEncoder().encode(padded);
    const t = performance.now();
    expect(svgStateLink(bytes, 128 * 1024)).toEqual({ link: LINK });
    expect(performance.now() - t).toBeLessThan(100);
    expect(svgStateLink(bytes, 10)).toEqual({ tooLarge: LINK.length });
    // The drawing's size is the viewBox's, and everything sits inside it.
    const [, , w, h] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
    expect(w).toBe(640);
    expect(Number(svg.getAttribute('height'))).toBe(h);
    const lastText = Array.from(svg.getElementsByTagName('text')).at(-1);
    expect(Number(lastText?.getAttribute('y'))).toBeLessThan(h);
    expect(h).toBeGreaterThan(120 + 60);
  });

  it('grows with a caption that wraps, never running wider than the picture', () => {
    const long = 'word '.repeat(200);
    const short = reparse(serializeDiagram(composeDiagram(document, parts())));
    const tall = reparse(serializeDiagram(composeDiagram(document, parts({ caption: long }))));
    expect(Number(tall.getAttribute('height'))).toBeGreaterThan(
      Number(short.getAttribute('height')) + 50,
    );
  });
});

describe('stateLinkOf', () => {
  it('finds nothing in an SVG that tlbscope did not export, or in what is not SVG', () => {
    expect(stateLinkOf('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')).toBeNull();
    expect(stateLinkOf('not xml at all <')).toBeNull();
    expect(stateLinkOf('<html><body>hi</body></html>')).toBeNull();
    const enc = (t: string) => new TextEncoder().encode(t);
    expect(
      svgStateLink(enc('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'), 1e5),
    ).toBeNull();
    expect(svgStateLink(enc('<html><metadata></metadata></html>'), 1e5)).toBeNull();
  });

  it('calls a metadata element that does not end within the head too large, unread', () => {
    const huge = enc2(`<svg xmlns="http://www.w3.org/2000/svg"><metadata>${'y'.repeat(3_000_000)}`);
    expect(svgStateLink(huge, 128 * 1024)).toEqual({ tooLarge: huge.length - 40 });
  });

  it('reads a head of roots that never end once: 800 KB of `<svg ` is no link, at once', () => {
    // The root pattern retried from each of these 160,000 `<svg`: about ten minutes.
    const roots = enc2('<svg '.repeat(160_000));
    expect(svgStateLink(roots, 128 * 1024)).toBeNull();
    // The root tag still ends at its first `>`, even one right after `<svg`.
    const meta = '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">';
    const link = `${meta}<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:source>${LINK.replace(/&/g, '&amp;')}</dc:source></rdf:Description></rdf:RDF></metadata>`;
    const xmlns = 'xmlns="http://www.w3.org/2000/svg"';
    expect(
      svgStateLink(enc2(`${'<svg '.repeat(1000)}<svg ${xmlns}>${link}</svg>`), 1e5),
    ).toBeNull();
    expect(svgStateLink(enc2(`<svg ${xmlns}>${link}</svg>`), 1e5)).toEqual({ link: LINK });
  });
});

describe('reopenTarget', () => {
  const here = 'http://127.0.0.1:4173/tlbscope/demo/?view=data';
  it('opens a link of this same app, whether it names index.html or not', () => {
    expect(reopenTarget(LINK, here)).toEqual({ href: LINK });
    expect(reopenTarget('http://127.0.0.1:4173/tlbscope/demo/index.html?scenario=a', here)).toEqual(
      { href: 'http://127.0.0.1:4173/tlbscope/demo/index.html?scenario=a' },
    );
    const file = 'file:///home/me/tlbscope.html?scenario=x&talk=1';
    expect(reopenTarget(file, 'file:///home/me/tlbscope.html')).toEqual({ href: file });
  });

  it('refuses another site or another page with a message naming both', () => {
    const other = reopenTarget('https://evil.example/?scenario=x', here);
    expect('error' in other && other.error).toMatch(
      /https:\/\/evil\.example.*not from this tlbscope.*127\.0\.0\.1:4173/,
    );
    const elsewhere = reopenTarget('http://127.0.0.1:4173/other/?scenario=x', here);
    expect('error' in elsewhere && elsewhere.error).toMatch(/\/other\/.*another page/);
    const js = reopenTarget('javascript:alert(1)', here);
    expect('error' in js).toBe(true);
    expect('error' in reopenTarget('::not a url', here)).toBe(true);
  });

  it('quotes at most a short piece of a long host or path', () => {
    // The svg fuzz class's seed 1 case 18681: a path of thousands of characters was quoted whole.
    const path = reopenTarget(`http://127.0.0.1:4173/${'a/'.repeat(3000)}?scenario=x`, here);
    const host = reopenTarget(`http://${'b'.repeat(60)}.${'c'.repeat(60)}.example/?x=1`, here);
    for (const r of [path, host]) {
      expect('error' in r && r.error.length).toBeLessThan(700);
      expect('error' in r && r.error).toContain('…');
    }
  });
});

describe('layout helpers', () => {
  it('wraps words into lines that fit, cutting only words longer than a line', () => {
    const lines = wrapText(`short words then ${'x'.repeat(300)} end`, 200, 12);
    const per = Math.floor(200 / (12 * 0.55));
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(per);
    expect(lines.join('').replace(/ /g, '')).toBe(`shortwordsthen${'x'.repeat(300)}end`);
  });

  it('flows legend entries into rows inside the width', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({
      label: `entry number ${i}`,
      swatch: 'rect' as const,
      color: '#000',
    }));
    const { placed, height } = layoutLegend(items, 400);
    expect(placed).toHaveLength(12);
    expect(new Set(placed.map((p) => p.y)).size).toBeGreaterThan(1);
    for (const p of placed) expect(p.x).toBeLessThan(400);
    expect(height).toBeGreaterThan(0);
  });
});

describe('inlineStyles', () => {
  it("copies what the page's style sheets say onto the copy, and drops hidden parts", () => {
    const src = document.createElementNS(SVG_NS, 'g');
    src.innerHTML =
      '<rect class="span k-TaskRun" data-row="3"/><text class="lane-label" role="button">CPU 0</text><g class="hidden"/>';
    const dst = src.cloneNode(true) as Element;
    const styles = new Map<string, Record<string, string>>([
      ['span k-TaskRun', { fill: 'rgb(201, 214, 227)', opacity: '0.3' }],
      ['lane-label', { fill: 'rgb(0, 0, 0)', 'font-weight': '600', 'font-size': '11px' }],
      ['hidden', { display: 'none' }],
    ]);
    inlineStyles(src, dst, (e) => ({
      getPropertyValue: (p: string) => styles.get(e.getAttribute('class') ?? '')?.[p] ?? '',
    }));
    const [rect, text] = Array.from(dst.children);
    expect(dst.children).toHaveLength(2);
    expect(rect.getAttribute('style')).toBe('fill:rgb(201, 214, 227);opacity:0.3');
    expect(rect.getAttribute('data-row')).toBe('3');
    expect(rect.hasAttribute('class')).toBe(false);
    expect(text.getAttribute('style')).toBe('fill:rgb(0, 0, 0);font-size:11px;font-weight:600');
    expect(text.hasAttribute('role')).toBe(false);
  });
});

const enc2 = (t: string) => new TextEncoder().encode(t);
