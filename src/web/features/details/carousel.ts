/**
 * The media carousel's rules (map-and-search §3, §4, §8, §9): the cover video (or image) first,
 * then the screenshots; previous and next are disabled at the ends; a horizontal swipe past a
 * threshold moves one slide; a video the browser cannot play (MediaError code 4) is treated as no
 * video.
 */

export interface Slide {
  kind: 'video' | 'image';
  url: string;
  poster?: string | null;
}

/** §9: at most the cover and 14 screenshots. */
export const MAX_SLIDES = 15;
/** A swipe moves a slide once the finger travelled this far sideways. */
export const SWIPE_THRESHOLD_PX = 40;
/** MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED: §8 treats the video as empty. */
export const VIDEO_UNSUPPORTED_CODE = 4;

/**
 * The slides to show. Once the cover video failed with code 4 it is dropped; its poster (the cover
 * image) takes its place when there is one.
 */
export function visibleSlides(slides: readonly Slide[], videoUnsupported: boolean): Slide[] {
  const out: Slide[] = [];
  for (const slide of slides) {
    if (slide.kind === 'video' && videoUnsupported) {
      if (slide.poster) out.push({ kind: 'image', url: slide.poster });
      continue;
    }
    out.push(slide);
  }
  return out.slice(0, MAX_SLIDES);
}

/** An index kept inside 0..count-1 (0 for an empty carousel or a non-number). */
export function clampSlide(index: number, count: number): number {
  if (count <= 0 || !Number.isFinite(index)) return 0;
  return Math.min(count - 1, Math.max(0, Math.trunc(index)));
}

export const canGoPrevious = (index: number, count: number): boolean => clampSlide(index, count) > 0;
export const canGoNext = (index: number, count: number): boolean => clampSlide(index, count) < count - 1;

/**
 * Where a swipe lands: a move left (negative dx) shows the next slide, right the previous one; short
 * or mostly vertical moves (scrolling the panel) change nothing, and the ends hold.
 */
export function swipeTarget(
  index: number,
  count: number,
  dx: number,
  dy = 0,
  threshold = SWIPE_THRESHOLD_PX,
): number {
  const current = clampSlide(index, count);
  if (Math.abs(dx) < threshold || Math.abs(dy) > Math.abs(dx)) return current;
  return clampSlide(current + (dx < 0 ? 1 : -1), count);
}
