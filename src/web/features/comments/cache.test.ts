import { describe, expect, it } from 'vitest';
import type { CommentItem } from '../../../shared/api/comments';
import { applyLive, drop, prepend, replace, settle, type CommentPages } from './cache';

const item = (replid: string, text = replid): CommentItem => ({
  replid,
  objectid: 'p',
  objecttype: 'P',
  text,
  author: { id: 'u1', username: 'olivia', displayname: 'Olivia', avatar: null },
  addedon: 1,
  editedon: null,
  viewer: { can_edit: false, can_remove: false },
  likes_up: 0,
  likes_down: 0,
  my_like: null,
});
const pages = (...lists: string[][]): CommentPages => ({
  pages: lists.map((ids, k) => ({
    data: ids.map((id) => item(id)),
    hasmore: k < lists.length - 1,
    count: 12,
  })),
  pageParams: lists.map((_, k) => (k === 0 ? '' : `b${k}`)),
});
const ids = (data: CommentPages) => data.pages.map((page) => page.data.map((each) => each.replid));

describe('the comments cache', () => {
  it('puts a new comment on top and counts it; the same id twice stays once', () => {
    const once = prepend(pages(['b', 'a'], ['z']), item('temp-1'));
    expect(ids(once)).toEqual([['temp-1', 'b', 'a'], ['z']]);
    expect(once.pages[0]!.count).toBe(13);
    expect(prepend(once, item('temp-1'))).toBe(once);
  });

  it("swaps the temporary comment for the server's, or drops it when the live push came first", () => {
    const shown = prepend(pages(['b']), item('temp-1'));
    expect(ids(settle(shown, 'temp-1', item('c'), 14))).toEqual([['c', 'b']]);
    const heard = prepend(shown, item('c'), 14);
    const settled = settle(heard, 'temp-1', item('c'), 14);
    expect(ids(settled)).toEqual([['c', 'b']]);
    expect(settled.pages[0]!.count).toBe(14);
  });

  it('edits in place and removes from any page', () => {
    const data = pages(['b', 'a'], ['z']);
    expect(replace(data, 'z', { text: 'new' }).pages[1]!.data[0]!.text).toBe('new');
    const dropped = drop(data, 'z');
    expect(ids(dropped)).toEqual([['b', 'a'], []]);
    expect(dropped.pages[0]!.count).toBe(11);
    // a comment not on screen changes only the count the server gives
    expect(drop(data, 'q', 9).pages[0]!.count).toBe(9);
  });

  it('takes our own comment heard live in place of its temporary copy, never twice', () => {
    const shown = prepend(pages(['a']), { ...item('temp-1', 'hi') });
    const heard = applyLive(
      shown,
      { action: 'add', commentid: 'b', comment: item('b', 'hi'), count: 13 },
      () => ({ can_edit: true, can_remove: true }),
    );
    expect(ids(heard)).toEqual([['b', 'a']]);
    expect(ids(settle(heard, 'temp-1', item('b', 'hi'), 13))).toEqual([['b', 'a']]);
  });

  it('applies live pushes with the rights the page works out', () => {
    const mine = () => ({ can_edit: true, can_remove: true });
    const added = applyLive(
      pages(['a']),
      { action: 'add', commentid: 'b', comment: item('b'), count: 2 },
      mine,
    );
    expect(ids(added)).toEqual([['b', 'a']]);
    expect(added.pages[0]!.data[0]!.viewer).toEqual({ can_edit: true, can_remove: true });
    const edited = applyLive(
      added,
      { action: 'edit', commentid: 'b', comment: { ...item('b', 'changed'), editedon: 5 }, count: 2 },
      mine,
    );
    expect(edited.pages[0]!.data[0]).toMatchObject({ text: 'changed', editedon: 5 });
    const removed = applyLive(edited, { action: 'remove', commentid: 'b', count: 1 }, mine);
    expect(ids(removed)).toEqual([['a']]);
    expect(removed.pages[0]!.count).toBe(1);
  });
});
