import { describe, expect, it } from 'vitest';
import { fitScale } from './FitBox';

describe('fitting the embedded diagram to its frame', () => {
  it('shrinks a diagram taller than the frame so all of it shows', () => {
    expect(fitScale({ w: 1600, h: 300 }, 600)).toBe(0.5);
  });
  it('keeps the laid-out width wide enough for the axis labels in a narrow frame', () => {
    expect(fitScale({ w: 465, h: 1000 }, 300)).toBe(465 / 620);
  });
  it('magnifies in a big frame, but at most three times', () => {
    expect(fitScale({ w: 1900, h: 1000 }, 400)).toBe(2.5);
    expect(fitScale({ w: 2400, h: 1200 }, 200)).toBe(3);
  });
  it('never scales below the legibility floor, however tall the content', () => {
    expect(fitScale({ w: 1600, h: 300 }, 600, 1)).toBe(1);
  });
  it('lets the height set the scale when the floor already narrowed a small frame', () => {
    // 480 wide at the floor of 1 is under 620 already: grow to fill the height, to 360 wide.
    expect(fitScale({ w: 480, h: 210 }, 150, 1)).toBeCloseTo(480 / 360);
    expect(fitScale({ w: 480, h: 210 }, 200, 1)).toBeCloseTo(210 / 200);
  });
  it('leaves the scale alone before anything is measured', () => {
    expect(fitScale({ w: 0, h: 0 }, 300)).toBe(1);
  });
});
