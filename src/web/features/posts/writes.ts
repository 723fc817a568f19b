import type { PostResult } from '../../../shared/api/posts';

/**
 * Post writes the page around the posts screens may need to hear of: the shell reloads the map's
 * point tiles (a post with a place is on the map) and schedules another reload for the moment the
 * post expires (nothing is written then, so nothing else would tell the map). A listener here keeps
 * the map's code out of the posts chunk, which the server-rendered full-screen page loads too.
 */
type PostWriteListener = (post: PostResult | null) => void;
const listeners = new Set<PostWriteListener>();

export function onPostWrite(listener: PostWriteListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A post was saved, renewed or hidden (`post`), or deleted (null). */
export function announcePostWrite(post: PostResult | null): void {
  for (const listener of listeners) listener(post);
}
