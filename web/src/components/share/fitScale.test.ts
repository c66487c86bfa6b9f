import { describe, expect, it } from 'vitest';
import { fitScale } from './FitBox';

describe('fitting the embedded diagram to its frame', () => {
  it('shrinks a diagram taller than the frame so all of it shows', () => {
    expect(fitScale({ w: 1600, h: 300 }, 600)).toBe(0.5);
  });
  it('keeps the laid-out width wide enough for the axis labels in a narrow frame', () => {
    expect(fitScale({ w: 465, h: 1000 }, 300)).toBe(465 / 620);
  });
  it('magnifies in a big frame, but at most twice', () => {
    expect(fitScale({ w: 1900, h: 1000 }, 400)).toBe(2);
  });
  it('leaves the scale alone before anything is measured', () => {
    expect(fitScale({ w: 0, h: 0 }, 300)).toBe(1);
  });
});
