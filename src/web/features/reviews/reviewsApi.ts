import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import {
  REVIEWS_PAGE_SIZE,
  inviteReviewResponseSchema,
  reviewWriteResponseSchema,
  reviewsPageSchema,
  type ReviewWriteResponse,
  type ReviewsPage,
} from '../../../shared/api/reviews';
import { apiPost } from '../../lib/api';
import { answersOf, apiQuery, refreshAfterWrite } from '../../lib/query';
import { pointDetailsPath } from '../details/queries';

/**
 * The reviews calls of the web app (src/shared/api/reviews.ts names every one). The modal's pages are
 * one infinite query per point and viewer, keyed under the spec's path; every write, and every change
 * heard live, refreshes them and the point's details (its rating line).
 */

export const REVIEWS_PATH = '/review/reviews';

/** "More reviews" asks for the page after the last one shown by its keyset cursor (`before`). */
export const reviewsQuery = (appid: string, viewer: string) =>
  infiniteQueryOptions({
    queryKey: [REVIEWS_PATH, appid, viewer],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }): Promise<ReviewsPage> =>
      apiPost(
        REVIEWS_PATH,
        reviewsPageSchema,
        {
          appid,
          pagesize: REVIEWS_PAGE_SIZE,
          prefix: 'mdl',
          mustRenderViewScripts: true,
          ...(pageParam === null ? {} : { before: pageParam }),
        },
        { signal, read: true },
      ),
    getNextPageParam: (last: ReviewsPage) => last.next ?? undefined,
  });

/** The point's reviews and its details (the rating on the panel), wherever they show. */
export async function refreshReviews(client: QueryClient, appid: string): Promise<void> {
  await Promise.all([
    refreshAfterWrite(client, {
      predicate: ({ queryKey }) => queryKey[0] === REVIEWS_PATH && queryKey[1] === appid,
    }),
    refreshAfterWrite(client, answersOf(pointDetailsPath(appid))),
  ]);
}

export type ReviewWriteKind = 'add' | 'edit';

export function saveReview(
  kind: ReviewWriteKind,
  body: { appid: string; stars: number; text: string },
): Promise<ReviewWriteResponse> {
  return apiPost(`/v1/reviews/${kind}`, reviewWriteResponseSchema, body);
}

export function deleteReview(appid: string): Promise<ReviewWriteResponse> {
  return apiPost('/v1/reviews/delete', reviewWriteResponseSchema, { appid });
}

export function saveReply(reviewid: string, text: string): Promise<ReviewWriteResponse> {
  return apiPost('/v1/reviews/reply', reviewWriteResponseSchema, { reviewid, text });
}

export function deleteReply(reviewid: string): Promise<ReviewWriteResponse> {
  return apiPost('/v1/reviews/reply/delete', reviewWriteResponseSchema, { reviewid });
}

/** GET /Review/InviteReview?appid= as JSON (the API client asks with Accept: application/json). */
export const inviteReviewQuery = (appid: string, viewer: string) =>
  apiQuery(`/Review/InviteReview?appid=${encodeURIComponent(appid)}`, inviteReviewResponseSchema, viewer);
