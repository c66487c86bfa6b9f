// Picture cases for the fuzzer: PNG and SVG files dropped on the page, through its reader of
// the state link they carry (dropAnswer in web/src/app/dropLink.ts). Made the way tlbscope
// writes them (a tEXt or iTXt chunk before IEND; <metadata> third in the SVG) with links good
// and wild, then damaged: bytes flipped, cut, chunk lengths and checksums wrong, thousands of
// chunks, huge or unended metadata, unclosed tags, other files entirely.
import { crc32, deflateSync } from 'node:zlib';
import { linkCase } from './links.mjs';

const KEY = 'tlbscope-state';
const HERE = 'http://127.0.0.1:5173/tlbscope/';

/** Where the page is when the file is dropped (the link's own origin, mostly). */
export const DROP_HERE = HERE;

/** A state link: the page's own, another site's, or not a URL at all. */
function link(r, scenarios) {
  const q = linkCase(r, scenarios);
  switch (r.int(0, 9)) {
    case 0:
      return `https://example.org/tlbscope/${q.startsWith('?') ? q : `?${q}`}`;
    case 1:
      return `${HERE}other/index.html${q.startsWith('?') ? q : `?${q}`}`;
    case 2:
      return r.pick([
        '',
        ' ',
        'javascript:alert(1)',
        'http://[::1',
        '\u0000',
        'x'.repeat(r.int(0, 300)),
      ]);
    case 3: // around the cap, now and then (each costs milliseconds)
      return r.chance(0.1) ? `${HERE}?src=${'x'.repeat(r.int(120_000, 140_000))}` : HERE;
    default:
      return `${HERE}${q.startsWith('?') ? q : `?${q}`}`;
  }
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const IHDR = (() => {
  const b = Buffer.alloc(13);
  b.writeUInt32BE(2, 0);
  b.writeUInt32BE(1, 4);
  b.set([8, 2, 0, 0, 0], 8);
  return chunk('IHDR', b);
})();
const IDAT = chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 0, 0, 255])));
const IEND = chunk('IEND', Buffer.alloc(0));
const SIG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/**
 * A text chunk as tlbscope (tEXt) or another writer (iTXt, maybe compressed) would put it, and
 * whether tlbscope's reader must find `text` in it.
 */
function textChunk(r, text) {
  const key = r.chance(0.9)
    ? KEY
    : r.pick(['Title', 'tlbscope', 'tlbscope-statex', '', KEY.toUpperCase()]);
  const named = Buffer.from(`${key}\0`, 'latin1');
  if (r.chance(0.8)) {
    const latin = [...text].every((c) => c.charCodeAt(0) < 256);
    const data = Buffer.concat([named, Buffer.from(text, 'latin1')]);
    return { chunk: chunk('tEXt', data), readable: key === KEY && latin };
  }
  const flag = r.chance(0.8) ? 0 : r.int(0, 255);
  const lang = r.chance(0.8) ? 'en\0' : r.pick(['', 'en', '\0\0']);
  const translated = r.chance(0.8) ? '\0' : '';
  const data = Buffer.concat([
    named,
    Buffer.from([flag, 0]),
    Buffer.from(lang + translated, 'latin1'),
    Buffer.from(text.toWellFormed(), 'utf8'),
  ]);
  const readable = key === KEY && flag === 0 && lang === 'en\0' && translated === '\0';
  return { chunk: chunk('iTXt', data), readable: readable && text.isWellFormed() };
}

/** One damage to the file's bytes. */
function damageBytes(r, b) {
  const at = r.int(0, b.length);
  switch (r.int(0, 5)) {
    case 0:
      return b.subarray(0, at);
    case 1: {
      const c = Buffer.from(b);
      for (let k = r.int(1, 8); k > 0; k--)
        c[r.int(0, Math.max(0, c.length - 1))] ^= 1 << r.int(0, 7);
      return c;
    }
    case 2: {
      // a chunk length field made wild
      const c = Buffer.from(b);
      if (c.length >= 12)
        c.writeUInt32BE(
          r.pick([0, 1, 0x7fffffff, 0xffffffff, c.length, r.int(0, 1e6)]),
          Math.min(c.length - 4, 8 + 4 * r.int(0, 8)),
        );
      return c;
    }
    case 3:
      return Buffer.concat([
        b.subarray(0, at),
        Buffer.alloc(r.int(1, 64), r.int(0, 255)),
        b.subarray(at),
      ]);
    case 4:
      return Buffer.concat([b.subarray(0, at), b.subarray(at, at + r.int(1, 200)), b.subarray(at)]);
    default:
      return Buffer.concat([b, b.subarray(0, r.int(0, b.length))]);
  }
}

/**
 * A PNG case: its bytes and, when the file is whole and its first text chunk is one tlbscope
 * reads, the link that must read back.
 */
export function pngCase(r, scenarios) {
  const text = link(r, scenarios);
  const chunks = [IHDR];
  if (r.chance(0.1))
    for (let k = r.chance(0.1) ? r.int(1, 20_000) : r.int(1, 50); k > 0; k--)
      chunks.push(chunk(r.pick(['tEXt', 'zzZz', 'IDAT']), Buffer.alloc(r.int(0, 3))));
  chunks.push(IDAT);
  const ours = r.chance(0.85) ? textChunk(r, text) : null;
  if (ours) chunks.push(ours.chunk);
  if (r.chance(0.1)) chunks.push(textChunk(r, link(r, scenarios)).chunk);
  chunks.push(IEND);
  if (r.chance(0.05)) chunks.push(chunk('tEXt', Buffer.from(`${KEY}\0late`, 'latin1')));
  const sig = r.chance(0.97);
  let bytes = Buffer.concat([sig ? SIG : Buffer.from('GIF89a'), ...chunks]);
  const whole = r.chance(0.5);
  if (!whole) for (let k = r.int(1, 3); k > 0; k--) bytes = damageBytes(r, bytes);
  return {
    name: r.chance(0.9) ? 'view.png' : r.pick(['', 'x.PNG', '\u202e.png']),
    bytes: new Uint8Array(bytes),
    size: bytes.length,
    // Past the cap the reader skips a chunk for the next one of its name: no single answer.
    expect: whole && sig && ours?.readable && text.length < 60_000 ? text : null,
  };
}

function esc(s) {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const SVG_HEAD = [
  `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="800" font-family="sans-serif" xmlns:xlink="http://www.w3.org/1999/xlink">`,
  '<title>Lazy TLB</title>',
  '<desc>predicted by the tlbscope model</desc>',
];

/** An SVG case: text as tlbscope writes it (or nearly), as UTF-8 bytes, maybe damaged. */
export function svgCase(r, scenarios) {
  const text = link(r, scenarios);
  const meta = [
    '<metadata id="tlbscope-state"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    `<rdf:Description rdf:about="${esc(text)}"><dc:title>t</dc:title><dc:source>${esc(text)}</dc:source><dc:creator>tlbscope</dc:creator></rdf:Description>`,
    '</rdf:RDF></metadata>',
  ];
  const parts = [
    r.chance(0.9) ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '',
    ...SVG_HEAD,
    ...meta,
    '<rect x="0" y="0" width="800" fill="#fff"/>',
  ];
  if (r.chance(0.01))
    parts.push(`<image href="data:image/png;base64,${'A'.repeat(r.int(0, 2_000_000))}"/>`);
  parts.push('</svg>\n');
  let s = parts.join('');
  const whole = r.chance(0.4);
  if (!whole) {
    for (let k = r.int(1, 3); k > 0; k--) {
      const at = r.int(0, s.length);
      switch (r.int(0, 7)) {
        case 0:
          s = s.slice(0, at);
          break;
        case 1:
          s = s.slice(0, at) + s.slice(at + r.int(1, 100));
          break;
        case 2:
          s =
            s.slice(0, at) +
            r.pick([
              '<',
              '>',
              '"',
              '&',
              ']]>',
              '<!--',
              '<![CDATA[',
              '<!DOCTYPE x [<!ENTITY a "b">]>',
              '&a;',
              '\u0000',
              '\ud800',
              '</metadata>',
              '<metadata>',
            ]) +
            s.slice(at);
          break;
        case 3: // many roots, and a head with none that ends
          s =
            `${r.pick(['<svg ', '<svg\n', '<svg>'])}`.repeat(
              r.chance(0.05) ? r.int(1, 200_000) : r.int(1, 100),
            ) + s;
          break;
        case 4: // metadata that never ends, or a link longer than the cap
          s = s.replace(
            '</metadata>',
            r.chance(0.5)
              ? ''
              : `${'x'.repeat(r.chance(0.05) ? r.int(1, 600_000) : r.int(1, 100))}</metadata>`,
          );
          break;
        case 5: // entities that expand
          s = s
            .replace(
              '<svg ',
              '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg ',
            )
            .replace('<dc:source>', '<dc:source>&c;');
          break;
        case 6: // deep nesting inside the metadata
          // Not deeper: jsdom's DOMParser, standing in for the browser's here, takes the square
          // of the depth (minutes at 30,000), where Chromium refuses 5,000 levels at once.
          s = s.replace('<dc:source>', `${'<g>'.repeat(r.int(1, 1000))}<dc:source>`);
          break;
        default:
          s = s.slice(0, at) + String.fromCharCode(r.int(0, 0xffff)) + s.slice(at);
      }
    }
  }
  const bytes = new TextEncoder().encode(s);
  const size = r.chance(0.9) ? bytes.length : Math.max(bytes.length, r.int(0, 64 * 1024 * 1024));
  // XML refuses some characters and turns line ends into \n: a link with them is not checked.
  const plain = /^[\t\n\u0020-\ud7ff\ue000-\ufffd]*$/.test(text);
  return {
    name: r.chance(0.9) ? 'view.svg' : r.pick(['', 'x.SVG', '\u202e.svg']),
    bytes,
    size,
    expect: whole && plain && text.length < 60_000 ? text.trim() : null,
  };
}
