import { describe, expect, it } from 'vitest';
import { GAP, MARGIN, placeBeside, type Box } from './placeBeside';

const VIEW = { width: 1440, height: 900 };
const FIGURE: Box = { left: 280, top: 300, width: 1140, height: 700 };
const SIZE = { width: 380, height: 400 };
const box = (left: number, top: number, width: number, height: number): Box => ({
  left,
  top,
  width,
  height,
});
const overlaps = (a: Box, b: Box) =>
  a.left < b.left + b.width &&
  b.left < a.left + a.width &&
  a.top < b.top + b.height &&
  b.top < a.top + a.height;

describe('placeBeside', () => {
  it('puts the details to the right of an event that leaves room there', () => {
    const event = box(500, 450, 60, 10);
    const at = placeBeside(event, SIZE, FIGURE, VIEW);
    expect(at.left).toBe(500 + 60 + GAP);
    expect(at.top).toBe(450 - GAP);
  });

  it('puts them to the left of an event near the right edge', () => {
    const event = box(1300, 450, 60, 10);
    const at = placeBeside(event, SIZE, FIGURE, VIEW);
    expect(at.left + SIZE.width).toBe(1300 - GAP);
  });

  it('keeps them within the viewport for an event near its bottom', () => {
    const event = box(500, 860, 60, 10);
    const at = placeBeside(event, SIZE, FIGURE, VIEW);
    expect(at.top + SIZE.height).toBeLessThanOrEqual(VIEW.height - MARGIN);
    expect(at.top).toBeGreaterThanOrEqual(MARGIN);
  });

  it('puts them under a span as wide as the figure, by the point clicked, without covering it', () => {
    const span = box(300, 200, 1100, 10);
    const at = placeBeside(span, SIZE, FIGURE, VIEW, 900);
    expect(at.top).toBe(200 + 10 + GAP);
    expect(at.left + SIZE.width / 2).toBe(900);
    const placed = box(at.left, at.top, SIZE.width, Math.min(SIZE.height, at.maxHeight));
    expect(overlaps(placed, span)).toBe(false);
  });

  it('over a wide span low on the screen, no taller than the room there', () => {
    const span = box(300, 700, 1100, 10);
    const at = placeBeside(span, SIZE, FIGURE, VIEW, 900);
    const placed = box(at.left, at.top, SIZE.width, Math.min(SIZE.height, at.maxHeight));
    expect(overlaps(placed, span)).toBe(false);
    expect(placed.top).toBeGreaterThanOrEqual(MARGIN);
  });

  it('on a phone, within the screen and off the event, even when the content is taller', () => {
    const phone = { width: 390, height: 844 };
    const figure = box(48, 100, 334, 1200);
    const event = box(300, 600, 20, 8);
    const at = placeBeside(event, { width: 334, height: 700 }, figure, phone);
    expect(at.left).toBeGreaterThanOrEqual(48);
    expect(at.left + 334).toBeLessThanOrEqual(382);
    const placed = box(at.left, at.top, 334, Math.min(700, at.maxHeight));
    expect(placed.top).toBeGreaterThanOrEqual(MARGIN);
    expect(placed.top + placed.height).toBeLessThanOrEqual(phone.height - MARGIN);
    expect(overlaps(placed, event)).toBe(false);
  });
});
