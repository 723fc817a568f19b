import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../../shared/api/home';
import { isNewerThanShown, mergeFeed, randomPlaceholder } from './feedItems';

const item = (id: string, listed_at: number) => ({ id, listed_at }) as FeedItem;

describe('the city feed items', () => {
  it('puts live posts first and keeps each post once', () => {
    const merged = mergeFeed([item('c', 30), item('b', 20)], [[item('b', 20), item('a', 10)]]);
    expect(merged.map((i) => i.id)).toEqual(['c', 'b', 'a']);
  });

  it('takes a pushed post only when it is newer than the newest shown', () => {
    const shown = [item('b', 20), item('a', 10)];
    expect(isNewerThanShown(item('c', 30), shown)).toBe(true);
    expect(isNewerThanShown(item('a', 10), shown)).toBe(false);
    expect(isNewerThanShown(item('z', 5), shown)).toBe(false);
    expect(isNewerThanShown(item('c', 20), shown)).toBe(true);
    expect(isNewerThanShown(item('a2', 20), shown)).toBe(false);
    expect(isNewerThanShown(item('x', 1), [])).toBe(true);
  });

  it('replaces a broken image with a random placeholder other than the failed one', () => {
    const urls = ['/media/a.webp', '/media/b.webp', '/media/c.webp'];
    expect(randomPlaceholder(urls, 'http://x/media/b.webp', () => 0.5)).toBe('/media/c.webp');
    expect(randomPlaceholder(urls, 'http://x/photo.jpg', () => 0)).toBe('/media/a.webp');
    expect(randomPlaceholder(['/media/a.webp'], 'http://x/media/a.webp')).toBeNull();
  });
});
