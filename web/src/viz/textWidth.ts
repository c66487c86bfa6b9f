// How wide a label is drawn, for placing labels apart (viz/labelLayout.ts). Measured once per
// class and text in the page (the stylesheet decides the font); where nothing lays text out
// (tests without a browser), a generous estimate per character.
const widths = new Map<string, number>();

export function textWidth(
  host: SVGElement | null,
  className: string,
  label: string,
  charPx: number,
): number {
  const key = `${className}\u0000${label}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  const estimate = label.length * charPx;
  if (!host || typeof (host as Partial<SVGGraphicsElement>).getBBox !== 'function') return estimate;
  const probe = host.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'text');
  probe.setAttribute('class', className);
  probe.textContent = label;
  host.appendChild(probe);
  const measured = probe.getComputedTextLength?.() ?? 0;
  probe.remove();
  // Not laid out (a hidden timeline): estimate now, measure again next time.
  if (!(measured > 0)) return estimate;
  widths.set(key, measured);
  return measured;
}
