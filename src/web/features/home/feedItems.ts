import type { FeedItem } from '../../../shared/api/home';

/**
 * The city feed's items: the pages read so far, with posts heard live in front. A live post is kept
 * once (every process pushes it, and a page may also hold it) and only when it is newer than the
 * newest item shown, so an edit of an older post never jumps the queue.
 */
export function mergeFeed(live: readonly FeedItem[], pages: readonly (readonly FeedItem[])[]): FeedItem[] {
  const seen = new Set<string>();
  const out: FeedItem[] = [];
  for (const item of [...live, ...pages.flat()]) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    out.push(item);
  }
  return out;
}

/** Whether a pushed item goes in front of `shown`: not shown yet, and newer than the newest shown. */
export function isNewerThanShown(item: FeedItem, shown: readonly FeedItem[]): boolean {
  if (shown.some((each) => each.id === item.id)) return false;
  const first = shown[0];
  if (!first) return true;
  return item.listed_at > first.listed_at || (item.listed_at === first.listed_at && item.id > first.id);
}

/** A random placeholder cover for a broken feed image (social §9), never the one that just failed. */
export function randomPlaceholder(
  placeholders: readonly string[],
  failed: string,
  random = Math.random,
): string | null {
  const choices = placeholders.filter((url) => !failed.endsWith(url));
  if (choices.length === 0) return null;
  return choices[Math.floor(random() * choices.length)] ?? choices[0] ?? null;
}
