import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  NEARBY_MAX_LOCATIONS,
  POSTS_PAGE_SIZE,
  nearbyResponseSchema,
  postDeleteResponseSchema,
  postFormStateSchema,
  postPageSchema,
  postResultSchema,
  postSaveResponseSchema,
  type NearbyPlace,
  type PostFormState,
  type PostSaveResponse,
} from '../../../shared/api/posts';
import { apiGet, apiPost, apiUpload } from '../../lib/api';
import { apiQuery, refreshAfterWrite } from '../../lib/query';

/**
 * The posts calls of the web app (src/shared/api/posts.ts names every one). Reads are TanStack
 * queries keyed by their path; writes refresh the posts answers (and the profile, which counts them).
 */

export const postDetailsPath = (id: string): string => `/myposts/details?id=${encodeURIComponent(id)}`;

export const postDetailsQuery = (id: string, viewer: string) =>
  apiQuery(postDetailsPath(id), postResultSchema, viewer);

export const pointPostsQuery = (
  xpointid: string,
  viewer: string,
  pagenumber = 1,
  pagesize = POSTS_PAGE_SIZE,
) =>
  apiQuery(
    `/v1/posts/point/${encodeURIComponent(xpointid)}?pagenumber=${pagenumber}&pagesize=${pagesize}`,
    postPageSchema,
    viewer,
  );

export const userPostsQuery = (username: string, viewer: string, pagenumber: number, pagesize: number) =>
  apiQuery(
    `/v1/posts/user/${encodeURIComponent(username)}?pagenumber=${pagenumber}&pagesize=${pagesize}`,
    postPageSchema,
    viewer,
  );

/** POST /myposts/new: the empty form of a new post whose id is the client's fresh GUID (social §3). */
export function newPostForm(id: string, returnUrl: string, signal?: AbortSignal): Promise<PostFormState> {
  return apiPost(
    '/myposts/new',
    postFormStateSchema,
    { id, resultMode: 'ReturnJson', returnUrl },
    signal ? { signal } : {},
  );
}

/** GET /myposts/edit: the post's editable fields (the server refuses another user's post). */
export function editPostForm(id: string, returnUrl: string, signal?: AbortSignal): Promise<PostFormState> {
  const query = new URLSearchParams({ id, resultMode: 'ReturnJson', returnUrl });
  return apiGet(`/myposts/edit?${query.toString()}`, postFormStateSchema, signal ? { signal } : {});
}

/** POST /v1/locations/nearby: the places a post can be attached to, nearest first (at most 30). */
export function nearbyPlaces(lat: number, lon: number, signal?: AbortSignal): Promise<NearbyPlace[]> {
  return apiPost(
    '/v1/locations/nearby',
    nearbyResponseSchema,
    { lat, lon, max_locations: NEARBY_MAX_LOCATIONS },
    signal ? { signal } : {},
  );
}

/**
 * The form's own action (social §7): multipart, the text fields first and the cover crop last (the
 * server reads the fields before the file), with the upload's progress, answered as ReturnJson.
 */
export function savePost(
  action: string,
  fields: Record<string, string | undefined>,
  cover: Blob | null,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
): Promise<PostSaveResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  if (cover !== null) form.append('cover_file', cover, cover instanceof File ? cover.name : 'cover.jpg');
  return apiUpload(action, postSaveResponseSchema, form, { onProgress, signal });
}

export function deletePost(id: string, returnUrl: string) {
  return apiPost('/myposts/delete', postDeleteResponseSchema, { id, resultMode: 'ReturnJson', returnUrl });
}

/** The hide answer is not in the contract beyond "ok"; whatever JSON object it is, it is read as done. */
const hideAnswerSchema = z.looseObject({});

export function hidePost(id: string, hidden: boolean) {
  return apiPost('/myposts/hide', hideAnswerSchema, { id, hidden });
}

/**
 * The answers a post write may have changed: every posts list and detail, and the profiles; but not
 * `except` (the details of a post just deleted, which would answer 404 if read again while its
 * view is still closing).
 */
export function refreshPosts(client: QueryClient, except?: string): Promise<void> {
  return refreshAfterWrite(client, {
    predicate: ({ queryKey }) => {
      const key = queryKey[0];
      return (
        typeof key === 'string' &&
        key !== except &&
        (key.startsWith('/v1/posts/') || key.startsWith('/myposts/') || key.startsWith('/v1/users/'))
      );
    },
  });
}
