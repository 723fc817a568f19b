import { describe, expect, it } from 'vitest';
import { PENDING_LIKE_ID, actionFor, applyAction, likeFailureText } from './likeState';

describe('like state (social §4)', () => {
  const none = { up: 3, down: 1, mine: null };
  const up = { up: 3, down: 1, mine: { likeid: 'l1', liketype: 0 as const } };

  it('adds with no like, removes with the same button, changes with the other', () => {
    expect(actionFor(null, 1)).toEqual({ kind: 'add', liketype: 1 });
    expect(actionFor(up.mine, 0)).toEqual({ kind: 'remove', likeid: 'l1', liketype: 0 });
    expect(actionFor(up.mine, 1)).toEqual({ kind: 'change', likeid: 'l1', liketype: 1 });
  });

  it('changes the counts by one and shows the pending like until the server names it', () => {
    expect(applyAction(none, { kind: 'add', liketype: 0 })).toEqual({
      up: 4,
      down: 1,
      mine: { likeid: PENDING_LIKE_ID, liketype: 0 },
    });
    expect(applyAction(up, { kind: 'remove', likeid: 'l1', liketype: 0 })).toEqual({
      up: 2,
      down: 1,
      mine: null,
    });
    expect(applyAction(up, { kind: 'change', likeid: 'l1', liketype: 1 })).toEqual({
      up: 2,
      down: 2,
      mine: { likeid: 'l1', liketype: 1 },
    });
  });

  it('never shows a count below zero (a count read before someone else removed theirs)', () => {
    expect(
      applyAction({ up: 0, down: 0, mine: up.mine }, { kind: 'remove', likeid: 'l1', liketype: 0 }).up,
    ).toBe(0);
  });

  it('words a refusal as the spec does', () => {
    expect(likeFailureText('You have no like with id x.')).toBe(
      'Sorry, Server returned Error ! : You have no like with id x.',
    );
  });
});
