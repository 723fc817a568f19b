import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { PostWorkMode } from '../../../shared/api/posts';
import { MAP_LOCATION_COOKIE, decodeLocationCookie } from '../../../shared/address';
import { LOGIN_REASONS, useSession } from '../accounts/session';
import { PostsHostContext, type PostsHost, type PostsRequest } from './context';
import { PostsModal } from './PostsModal';

export interface PostsModalHostProps {
  children?: ReactNode;
  navigate(path: string): void;
  /** where a new post without a point looks for nearby places; the saved map location by default */
  origin?: () => { lat: number; lon: number } | null;
  workMode?: PostWorkMode;
  /** open at once (the /post/{id} route) */
  initial?: PostsRequest;
  /** the modal closed (the /post/{id} route goes back to the map) */
  onClosed?: () => void;
}

/** The map location the visitor last saw (the map's cookie), for a page without a map. */
export function savedMapCentre(): { lat: number; lon: number } | null {
  const raw = document.cookie
    .split('; ')
    .find((entry) => entry.startsWith(`${MAP_LOCATION_COOKIE}=`))
    ?.slice(MAP_LOCATION_COOKIE.length + 1);
  if (raw === undefined) return null;
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // kept as it is
  }
  const location = decodeLocationCookie(value);
  return location === null ? null : { lat: location.lat, lon: location.lng };
}

/**
 * Owns the posts modal for what it wraps: anything inside opens a post, a new post or an edit
 * through `usePostsHost()`. A visitor asking to write gets the login modal (social §4), and the form
 * once signed in.
 */
export function PostsModalHost({
  children,
  navigate,
  origin = savedMapCentre,
  workMode = 'AllFeatures',
  initial,
  onClosed,
}: PostsModalHostProps) {
  const { signedIn, loading, requireAccount } = useSession();
  // a details request opens at once; a new or edit one goes through the account check below
  const [request, setRequest] = useState<PostsRequest | null>(initial?.kind === 'details' ? initial : null);
  const [generation, setGeneration] = useState(0);
  const open = useCallback(
    (next: PostsRequest) => {
      const show = () => {
        setRequest(next);
        setGeneration((value) => value + 1);
      };
      // while the session is still being read, the form's own call asks for an account if need be
      if (next.kind === 'details' || loading || signedIn) return show();
      if (requireAccount(LOGIN_REASONS.createPost, show)) show();
    },
    [signedIn, loading, requireAccount],
  );
  const initialAsked = useRef(false);
  useEffect(() => {
    if (initialAsked.current || initial === undefined || initial.kind === 'details') return;
    initialAsked.current = true;
    open(initial);
  }, [initial, open]);
  const host = useMemo<PostsHost>(() => ({ open, navigate }), [open, navigate]);
  return (
    <PostsHostContext.Provider value={host}>
      {children}
      {request !== null && (
        <PostsModal
          key={generation}
          request={request}
          workMode={workMode}
          origin={origin}
          onClose={() => {
            setRequest(null);
            onClosed?.();
          }}
        />
      )}
    </PostsHostContext.Provider>
  );
}
