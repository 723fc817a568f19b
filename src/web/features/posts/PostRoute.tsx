import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { placeBelowMapCenter, revealOnMap } from '../../map/mapHandle';
import { useSession } from '../accounts/session';
import { useShell } from '../../shell/context';
import { PostsModalHost } from './PostsModalHost';
import { postDetailsQuery } from './postsApi';

/** The map's centre (the part the panels leave uncovered), else the saved location. */
function mapCentre(): { lat: number; lon: number } | null {
  const centre = placeBelowMapCenter(0);
  return centre === null ? null : { lat: centre.lat, lon: centre.lng };
}

/**
 * /post/{id} in the shell: the map with the post open in the posts modal; closing it returns to the
 * map (or the level it was opened from).
 */
export function PostRoute({ id }: { id: string }) {
  const { navigation } = useShell();
  // a shared link opens where the post is: the map comes to its place (the modal's own read, cached)
  const { user } = useSession();
  const post = useQuery(postDetailsQuery(id, user?.id ?? '')).data;
  const lat = post?.lat ?? null;
  const lon = post?.lon ?? null;
  useEffect(() => {
    if (lat !== null && lon !== null) revealOnMap(lon, lat);
  }, [lat, lon]);
  return (
    <PostsModalHost
      navigate={navigation.openLevel}
      origin={mapCentre}
      initial={{ kind: 'details', id }}
      onClosed={navigation.canGoBack ? navigation.back : navigation.toMap}
    />
  );
}

/**
 * createpost=open on a page of the shell (social §2): the new-post form over whatever the page
 * shows (a visitor gets the login modal first). The shell takes the flag out of the address and
 * mounts this anew each time it appears.
 */
export function CreatePostModal({ onClosed }: { onClosed(): void }) {
  const { navigation } = useShell();
  return (
    <PostsModalHost
      navigate={navigation.openLevel}
      origin={mapCentre}
      initial={{ kind: 'new' }}
      onClosed={onClosed}
    />
  );
}
