import type { ClusterLeavesPage, LayerGroup } from '../../shared/map/contract';

/**
 * The cluster list's only server call: GET /tiles/points/clusters/{group}/{clusterId}/leaves.
 * A cluster may hold a million points (§9), so the list asks for one page at a time.
 */

/** Leaves per request (the server allows up to 100). */
export const CLUSTER_PAGE_SIZE = 50;

export class ClusterApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ClusterApiError';
  }
}

export function leavesUrl(
  group: LayerGroup,
  clusterId: number,
  offset: number,
  limit = CLUSTER_PAGE_SIZE,
): string {
  const query = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  return `/tiles/points/clusters/${encodeURIComponent(group)}/${clusterId}/leaves?${query.toString()}`;
}

export async function fetchClusterLeaves(
  group: LayerGroup,
  clusterId: number,
  offset: number,
  signal?: AbortSignal,
): Promise<ClusterLeavesPage> {
  const response = await fetch(leavesUrl(group, clusterId, offset), {
    headers: { Accept: 'application/json' },
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) {
    throw new ClusterApiError(
      response.status,
      response.status === 404
        ? 'This cluster has changed since the map was drawn. Close the list and click the map again.'
        : 'The places in this cluster could not be loaded. Please try again.',
    );
  }
  return (await response.json()) as ClusterLeavesPage;
}
