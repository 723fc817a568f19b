import { infiniteQueryOptions } from '@tanstack/react-query';
import {
  COMMENT_PAGE_SIZE,
  commentAddResponseSchema,
  commentEditResponseSchema,
  commentPageSchema,
  commentRemoveResponseSchema,
  type CommentAddResponse,
  type CommentEditResponse,
  type CommentRemoveResponse,
} from '../../../shared/api/comments';
import { apiPost } from '../../lib/api';

/** The comments calls of social §7, as the comments list uses them. */

const BASE = '/v1/webonly/comment';

/**
 * A post's comments as keyset pages: page 1 has no beforeid, each next one starts below the last
 * replid seen. Keyed by viewer, since each item says whether the viewer may edit or remove it.
 */
export function commentsQuery(postId: string, viewerId: string) {
  return infiniteQueryOptions({
    queryKey: ['comments', 'P', postId, viewerId],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      apiPost(
        `${BASE}/loadpage_beforeid`,
        commentPageSchema,
        { objectid: postId, objecttype: 'P', beforeid: pageParam, pagesize: COMMENT_PAGE_SIZE },
        { signal, read: true },
      ),
    getNextPageParam: (last) => (last.hasmore ? (last.data.at(-1)?.replid ?? undefined) : undefined),
  });
}

/** Every viewer's copy of a post's comments. */
export const commentsKey = (postId: string) => ['comments', 'P', postId];

export function addComment(postId: string, text: string): Promise<CommentAddResponse> {
  return apiPost(`${BASE}/add`, commentAddResponseSchema, { objectid: postId, objecttype: 'P', text });
}

export function editComment(commentid: string, newtext: string): Promise<CommentEditResponse> {
  return apiPost(`${BASE}/edit`, commentEditResponseSchema, { commentid, newtext });
}

export function removeComment(commentid: string): Promise<CommentRemoveResponse> {
  return apiPost(`${BASE}/remove`, commentRemoveResponseSchema, { commentid });
}
