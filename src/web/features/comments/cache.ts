import type { InfiniteData } from '@tanstack/react-query';
import type { CommentItem, CommentLive, CommentPage } from '../../../shared/api/comments';

/**
 * What each comment write (ours, optimistic, or someone's, heard live) does to the cached pages.
 * Pure functions on TanStack Query's infinite data: the newest page first, newest comment first.
 * The thread's count lives on the first page.
 */
export type CommentPages = InfiniteData<CommentPage, string>;

/** A comment shown before the server has answered: its id is ours until `replid` comes back. */
export const TEMP_PREFIX = 'temp-';
export const isTemporary = (item: CommentItem) => item.replid.startsWith(TEMP_PREFIX);

const has = (pages: CommentPages, id: string) =>
  pages.pages.some((page) => page.data.some((item) => item.replid === id));

function withCount(pages: CommentPages, count: (old: number) => number): CommentPages {
  return {
    ...pages,
    pages: pages.pages.map((page, k) =>
      k === 0 ? { ...page, count: Math.max(0, count(page.count)) } : page,
    ),
  };
}

/** A new comment on top (unless it is there already: our own, heard live before its answer). */
export function prepend(pages: CommentPages, item: CommentItem, count?: number): CommentPages {
  if (has(pages, item.replid)) return pages;
  const [first, ...rest] = pages.pages;
  if (!first) return pages;
  const added = { ...pages, pages: [{ ...first, data: [item, ...first.data] }, ...rest] };
  return withCount(added, (old) => count ?? old + 1);
}

/** Our temporary comment becomes the server's (or goes, if the live push brought it first). */
export function settle(pages: CommentPages, tempId: string, item: CommentItem, count: number): CommentPages {
  const already = has(pages, item.replid);
  const replaced = {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      data: page.data.flatMap((each) => (each.replid === tempId ? (already ? [] : [item]) : [each])),
    })),
  };
  return withCount(replaced, () => count);
}

/** A comment's new text (and edit time). */
export function replace(pages: CommentPages, id: string, change: Partial<CommentItem>): CommentPages {
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      data: page.data.map((item) => (item.replid === id ? { ...item, ...change } : item)),
    })),
  };
}

/** A comment gone: hidden from every page, the count one less (or the server's). */
export function drop(pages: CommentPages, id: string, count?: number): CommentPages {
  if (!has(pages, id)) return count === undefined ? pages : withCount(pages, () => count);
  const removed = {
    ...pages,
    pages: pages.pages.map((page) => ({ ...page, data: page.data.filter((item) => item.replid !== id) })),
  };
  return withCount(removed, (old) => count ?? old - 1);
}

/** What a live push does: someone's comment added, edited or removed on this post. */
export function applyLive(
  pages: CommentPages,
  live: CommentLive,
  rights: (item: CommentItem) => CommentItem['viewer'],
): CommentPages {
  if (live.action === 'remove') return drop(pages, live.commentid, live.count);
  if (!live.comment) return pages;
  const item = { ...live.comment, viewer: rights(live.comment) };
  if (live.action === 'add') {
    // our own comment heard before its answer: it takes the place of our temporary copy
    const temp = pages.pages
      .flatMap((page) => page.data)
      .find((each) => isTemporary(each) && each.author.id === item.author.id && each.text === item.text);
    return temp ? settle(pages, temp.replid, item, live.count) : prepend(pages, item, live.count);
  }
  return replace(pages, live.commentid, { text: item.text, editedon: item.editedon });
}
