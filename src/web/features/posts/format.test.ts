import { describe, expect, it } from 'vitest';
import {
  coverSizeProblem,
  formatFileSize,
  formatPostDate,
  isAcceptedCover,
  isExpiredDate,
  maxZoomFor,
  videoSizeProblem,
} from './format';

describe('posts display rules (social §5, §9)', () => {
  it('writes dates as DD MMM YYYY HH:mm (A)', () => {
    expect(formatPostDate(new Date(2026, 10, 7, 14, 5).getTime())).toBe('07 Nov 2026 14:05 (PM)');
    expect(formatPostDate(new Date(2026, 0, 31, 0, 0).getTime())).toBe('31 Jan 2026 00:00 (AM)');
  });

  it('writes file sizes in Kb below 1 MB, else in Mb with one decimal', () => {
    expect(formatFileSize(512 * 1024)).toBe('512 Kb');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1024 Kb');
    expect(formatFileSize(1024 * 1024)).toBe('1.0 Mb');
    expect(formatFileSize(15.25 * 1024 * 1024)).toBe('15.3 Mb');
  });

  it('refuses a cover over 10 MB and a video of 0 bytes or over 100 MB with the spec’s messages', () => {
    expect(coverSizeProblem(10_485_760)).toBeNull();
    expect(coverSizeProblem(10_485_761)).toBe('Invalid image size. Max allowed 10 MB');
    expect(videoSizeProblem(0)).toBe('Invalid video file size. Max allowed 100 MB');
    expect(videoSizeProblem(104_857_601)).toBe('Invalid video file size. Max allowed 100 MB');
    expect(videoSizeProblem(1)).toBeNull();
  });

  it('accepts the four image types, WebP and HEIC, by extension in any case', () => {
    for (const name of ['a.jpeg', 'b.JPG', 'c.png', 'd.gif', 'e.webp', 'f.HEIC'])
      expect(isAcceptedCover(name)).toBe(true);
    for (const name of ['a.svg', 'b.exe', 'c', 'jpg']) expect(isAcceptedCover(name)).toBe(false);
  });

  it('calls a date at or before now expired', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(isExpiredDate('2026-11-27T10:00:00Z', now)).toBe(true);
    expect(isExpiredDate('2026-11-27T10:00:01Z', now)).toBe(false);
    expect(isExpiredDate('', now)).toBe(false);
  });

  it('keeps the crop at least 50 pixels: the zoom stops where the square would be smaller', () => {
    expect(maxZoomFor(100)).toBe(2);
    expect(maxZoomFor(4000)).toBe(6);
    expect(maxZoomFor(30)).toBe(1);
  });
});
