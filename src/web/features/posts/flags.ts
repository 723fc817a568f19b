/**
 * The address flags of social §2: `createpost=open` opens the post form and is then removed (with
 * replace, so Back does not open it again); `posts=1` scrolls to the posts block, trying every
 * 300 ms up to 20 times while the block is still on its way.
 */
export const SCROLL_RETRY_MS = 300;
export const SCROLL_TRIES = 20;
export const POSTS_BLOCK_SELECTOR = '[data-posts-block]';

/** The address without createpost=open (the rest of the query kept). */
export function withoutCreatePost(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()]) if (key.toLowerCase() === 'createpost') params.delete(key);
  const query = params.toString();
  return query === '' ? pathname : `${pathname}?${query}`;
}

/** The address with createpost=open added (the "New post" entry and the for-sale redirect of §4). */
export function withCreatePost(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.set('createpost', 'open');
  return `${pathname}?${params.toString()}`;
}

export function hasFlag(search: string, name: 'createpost' | 'posts'): boolean {
  const params = new URLSearchParams(search);
  for (const [key, value] of params)
    if (key.toLowerCase() === name)
      return name === 'createpost' ? value.toLowerCase() === 'open' : value === '1';
  return false;
}

/** Scrolls the posts block into view once it is there; returns the way to stop trying. */
export function scrollToPostsBlock(): () => void {
  let tries = 0;
  let timer = 0;
  const attempt = () => {
    const block = document.querySelector(POSTS_BLOCK_SELECTOR);
    if (block !== null) return block.scrollIntoView({ behavior: 'smooth', block: 'start' });
    tries += 1;
    if (tries < SCROLL_TRIES) timer = window.setTimeout(attempt, SCROLL_RETRY_MS);
  };
  attempt();
  return () => window.clearTimeout(timer);
}
