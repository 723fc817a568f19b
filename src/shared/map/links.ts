/**
 * Where a click on a post (a map feature, a cluster leaf, a search result) goes: the posts contract's
 * /post/{id} (src/shared/api/posts.ts; /p/ is a point of interest's). One function, so that the map,
 * search and the app's post route agree; the posts-web route builder can take its place.
 */
export function postPath(id: string): string {
  return `/post/${id}`;
}
