import { LIKE_DOWN, LIKE_UP, type LikeType, type MyLike } from '../../../shared/api/likes';

/**
 * The like state of one person and object (social §4: none, up or down) and what a press on 👍 or
 * 👎 does to it: add (no like yet), remove (the same button again) or change the type (the
 * opposite button); counts change by 1. Pure, so the optimistic change and its test are one.
 */
export interface LikeState {
  up: number;
  down: number;
  mine: MyLike | null;
}

export type LikeAction =
  | { kind: 'add'; liketype: LikeType }
  | { kind: 'remove'; likeid: string; liketype: LikeType }
  | { kind: 'change'; likeid: string; liketype: LikeType };

/** The id an optimistic add shows until the server's replid comes (no call is made with it). */
export const PENDING_LIKE_ID = 'pending';

export function actionFor(mine: MyLike | null, pressed: LikeType): LikeAction {
  if (!mine) return { kind: 'add', liketype: pressed };
  if (mine.liketype === pressed) return { kind: 'remove', likeid: mine.likeid, liketype: pressed };
  return { kind: 'change', likeid: mine.likeid, liketype: pressed };
}

/** The state a press shows at once, before the server answers. */
export function applyAction(state: LikeState, action: LikeAction): LikeState {
  const count = (type: LikeType, by: number) => ({
    up: state.up + (type === LIKE_UP ? by : 0),
    down: state.down + (type === LIKE_DOWN ? by : 0),
  });
  switch (action.kind) {
    case 'add': {
      const counts = count(action.liketype, 1);
      return { ...counts, mine: { likeid: PENDING_LIKE_ID, liketype: action.liketype } };
    }
    case 'remove': {
      const counts = count(action.liketype, -1);
      return { up: Math.max(0, counts.up), down: Math.max(0, counts.down), mine: null };
    }
    case 'change': {
      const removed = count(action.liketype === LIKE_UP ? LIKE_DOWN : LIKE_UP, -1);
      return {
        up: Math.max(0, removed.up + (action.liketype === LIKE_UP ? 1 : 0)),
        down: Math.max(0, removed.down + (action.liketype === LIKE_DOWN ? 1 : 0)),
        mine: { likeid: action.likeid, liketype: action.liketype },
      };
    }
  }
}

/** Social §8: what a signed-in person sees when the server refuses a like. */
export function likeFailureText(detail: string): string {
  return `Sorry, Server returned Error ! : ${detail}`;
}
