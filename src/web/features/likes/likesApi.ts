import {
  likeRemoveResultSchema,
  likeResultSchema,
  likersPageSchema,
  type LikeObjectType,
  type LikeRemoveResult,
  type LikeResult,
  type LikeType,
  type LikersPage,
} from '../../../shared/api/likes';
import { apiPost } from '../../lib/api';
import type { LikeAction } from './likeState';

/** The likes calls of the web app (src/shared/api/likes.ts): one per press, and the likers' pages. */
export function sendLike(
  objectType: LikeObjectType,
  objectId: string,
  action: LikeAction,
): Promise<LikeResult | LikeRemoveResult> {
  switch (action.kind) {
    case 'add':
      return apiPost('/v1/webonly/like/add', likeResultSchema, {
        objectid: objectId,
        objecttype: objectType,
        liketype: action.liketype,
      });
    case 'remove':
      return apiPost('/v1/webonly/like/remove', likeRemoveResultSchema, { likeid: action.likeid });
    case 'change':
      return apiPost('/v1/webonly/like/changetype', likeResultSchema, {
        likeid: action.likeid,
        newliketype: action.liketype,
      });
  }
}

export function likersPage(
  objectType: LikeObjectType,
  objectId: string,
  liketype: LikeType | undefined,
  before: string | undefined,
  signal?: AbortSignal,
): Promise<LikersPage> {
  return apiPost(
    '/likes/list',
    likersPageSchema,
    {
      objectid: objectId,
      objecttype: objectType,
      ...(liketype !== undefined ? { liketype } : {}),
      ...(before !== undefined ? { before } : {}),
    },
    signal ? { signal, read: true } : { read: true },
  );
}
