import { describe, expect, it } from 'vitest';
import { canGoNext, canGoPrevious, clampSlide, swipeTarget, visibleSlides, type Slide } from './carousel';

const image = (n: number): Slide => ({ kind: 'image', url: `/media/${n}.webp` });

describe('carousel slides', () => {
  it('keeps the cover video first while it plays', () => {
    const slides: Slide[] = [{ kind: 'video', url: '/v.mp4', poster: '/cover.webp' }, image(1)];
    expect(visibleSlides(slides, false)).toEqual(slides);
  });

  it('treats a video with error code 4 as no video: its poster, or nothing, takes its place', () => {
    expect(visibleSlides([{ kind: 'video', url: '/v.mp4', poster: '/cover.webp' }, image(1)], true)).toEqual([
      { kind: 'image', url: '/cover.webp' },
      image(1),
    ]);
    expect(visibleSlides([{ kind: 'video', url: '/v.mp4', poster: null }, image(1)], true)).toEqual([
      image(1),
    ]);
  });

  it('shows at most the cover and 14 screenshots', () => {
    const many = Array.from({ length: 20 }, (_, i) => image(i));
    expect(visibleSlides(many, false)).toHaveLength(15);
  });
});

describe('previous and next', () => {
  it('are disabled at the ends', () => {
    expect(canGoPrevious(0, 3)).toBe(false);
    expect(canGoNext(0, 3)).toBe(true);
    expect(canGoPrevious(2, 3)).toBe(true);
    expect(canGoNext(2, 3)).toBe(false);
    expect(canGoPrevious(0, 1)).toBe(false);
    expect(canGoNext(0, 1)).toBe(false);
    expect(canGoNext(0, 0)).toBe(false);
  });

  it('clamps an index into the slides', () => {
    expect(clampSlide(-3, 4)).toBe(0);
    expect(clampSlide(9, 4)).toBe(3);
    expect(clampSlide(Number.NaN, 4)).toBe(0);
    expect(clampSlide(2, 0)).toBe(0);
  });
});

describe('swipe', () => {
  it('moves one slide left or right past the threshold', () => {
    expect(swipeTarget(1, 5, -80)).toBe(2);
    expect(swipeTarget(1, 5, 80)).toBe(0);
    expect(swipeTarget(1, 5, -39)).toBe(1);
  });

  it('holds at the ends and ignores vertical scrolling', () => {
    expect(swipeTarget(4, 5, -200)).toBe(4);
    expect(swipeTarget(0, 5, 200)).toBe(0);
    expect(swipeTarget(2, 5, -60, 120)).toBe(2);
  });
});
