// Writes that skip what is unchanged: setting an SVG attribute or a text, even to the value it
// already has, marks the element (and for text its glyph layout) dirty, so every frame paid
// for relaying out labels that had not moved.
export function set(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
