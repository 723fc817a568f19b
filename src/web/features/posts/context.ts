import { createContext, useContext } from 'react';

/** What the posts modal is asked to show (social §2 post action types: details, new, edit). */
export type PostsRequest =
  | { kind: 'details'; id: string }
  | { kind: 'edit'; id: string }
  /** a new post, with the point it starts attached to (opened from a point's page) */
  | { kind: 'new'; place?: PlaceChoice };

/** A point a post is attached to, with where it is (the nearby list is centred there). */
export interface PlaceChoice {
  xpointid: string;
  title: string;
  lat: number;
  lon: number;
  city_forurl?: string | null;
}

export interface PostsHost {
  /** Opens the posts modal; a visitor asking for a new post gets the login modal instead. */
  open(request: PostsRequest): void;
  /** Follows a link inside the app (router navigation); a plain page load where there is no router. */
  navigate(path: string): void;
}

export const PostsHostContext = createContext<PostsHost | null>(null);

export function usePostsHost(): PostsHost {
  const host = useContext(PostsHostContext);
  if (host === null) throw new Error('usePostsHost needs a <PostsModalHost> above it.');
  return host;
}
