import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { buildAddress } from '../../shared/address';
import type { ClusterClick } from './mapHandle';

/**
 * What a click on the map does, as router navigation (§4): a point opens its detail route, a
 * cluster opens the /cluster list carrying the view and the cluster. The map's hash goes along, so
 * the view stays where it is.
 */
export function useMapNavigation(): {
  onPointClick(clickurl: string): void;
  onClusterClick(cluster: ClusterClick): void;
} {
  const navigate = useNavigate();
  const onPointClick = useCallback(
    (clickurl: string) => {
      const url = new URL(clickurl, window.location.origin);
      void navigate({ pathname: url.pathname, search: url.search, hash: window.location.hash });
    },
    [navigate],
  );
  const onClusterClick = useCallback(
    ({ group, clusterId, loc }: ClusterClick) => {
      const pathname = buildAddress({ screen: 'cluster', data: { loc, cluster: { group, id: clusterId } } });
      void navigate({ pathname, hash: window.location.hash });
    },
    [navigate],
  );
  return { onPointClick, onClusterClick };
}
