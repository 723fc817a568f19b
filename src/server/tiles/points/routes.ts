import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import { LAYER_GROUPS, isLayerGroup, type LayerGroup } from '../../../shared/map/contract';
import type { ChangeFollower } from '../../store/follower';
import type { Store } from '../../store/store';
import { PointTiles } from './service';
import { parseLayers, parseTileAddress } from './tile-address';

/** Points change: a client revalidates after a few seconds, and the ETag makes that a 304. */
const TILE_CACHE_CONTROL = 'public, max-age=5';
const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
/** Cluster list view paging (§9: cluster leaves up to 1,000,000, shown a page at a time). */
export const LEAVES_MAX_LIMIT = 100;
const LEAVES_DEFAULT_LIMIT = 20;

export interface PointTileRoutesOptions {
  store: Store;
  /** the process's one change feed follower (app.ts), which keeps the index current. */
  follower: ChangeFollower;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the point tile index of this process (for the search index and tests). */
    pointTiles: PointTiles;
  }
}

/**
 * GET /tiles/points/{z}/{x}/{y}.mvt[?layers=business,poi]: clustered point tiles, one layer per group.
 * GET /tiles/points/clusters/{group}/{clusterId}/leaves?limit=&offset=: a page of a cluster's points.
 * GET /tiles/points/clusters/{group}/{clusterId}/expansion-zoom: the zoom at which it splits.
 */
export const pointTileRoutes: FastifyPluginAsync<PointTileRoutesOptions> = async (
  app,
  { store, follower },
) => {
  const tiles = await PointTiles.open(store, {
    follower,
    log: (message, details) => app.log.info(details ?? {}, message),
  });
  app.decorate('pointTiles', tiles);
  app.addHook('onClose', async () => tiles.close());

  app.get<{ Params: { z: string; x: string; y: string }; Querystring: { layers?: string } }>(
    '/tiles/points/:z/:x/:y',
    { compress: false },
    async (request, reply) => {
      const { z, x, y } = parseTileAddress(request.params.z, request.params.x, request.params.y);
      const groups = parseLayers(singleQuery(request.query.layers));
      const gzip = /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? ''));
      const etag = tiles.etag(z, x, y, groups);
      reply
        .header('Cache-Control', TILE_CACHE_CONTROL)
        .header('ETag', etag)
        .header('Vary', 'Accept-Encoding');
      if (matchesEtag(request, etag)) return reply.status(304).send();
      const { tile } = tiles.tile(z, x, y, groups, gzip);
      // an empty tile is 204 No Content: MapLibre treats it as a tile with no features
      if (!tile) return reply.status(204).send();
      reply.type(MVT_TYPE);
      if (gzip && tile.gzip) return reply.header('Content-Encoding', 'gzip').send(tile.gzip);
      return reply.send(tile.raw);
    },
  );

  app.get<{
    Params: { group: string; clusterId: string };
    Querystring: { limit?: string; offset?: string };
  }>('/tiles/points/clusters/:group/:clusterId/leaves', async (request, reply) => {
    const { group, clusterId } = clusterParams(request.params);
    const limit = pagingNumber(
      'limit',
      singleQuery(request.query.limit),
      LEAVES_DEFAULT_LIMIT,
      1,
      LEAVES_MAX_LIMIT,
    );
    const offset = pagingNumber('offset', singleQuery(request.query.offset), 0, 0, Number.MAX_SAFE_INTEGER);
    const page = tiles.leaves(group, clusterId, offset, limit);
    if (!page) throw new AppError('clusterNotFound', { group, clusterId });
    return reply.header('Cache-Control', 'no-cache').send(page);
  });

  app.get<{ Params: { group: string; clusterId: string } }>(
    '/tiles/points/clusters/:group/:clusterId/expansion-zoom',
    async (request, reply) => {
      const { group, clusterId } = clusterParams(request.params);
      const zoom = tiles.expansionZoom(group, clusterId);
      if (zoom === null) throw new AppError('clusterNotFound', { group, clusterId });
      return reply.header('Cache-Control', 'no-cache').send({ expansion_zoom: zoom });
    },
  );
};

function singleQuery(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

function clusterParams(params: { group: string; clusterId: string }): {
  group: LayerGroup;
  clusterId: number;
} {
  if (!isLayerGroup(params.group)) {
    throw new AppError('pointLayerGroupUnknown', {
      name: JSON.stringify(params.group),
      groups: LAYER_GROUPS.join(', '),
    });
  }
  if (!/^\d{1,16}$/.test(params.clusterId) || !Number.isSafeInteger(Number(params.clusterId))) {
    throw new AppError('clusterNotFound', { group: params.group, clusterId: params.clusterId });
  }
  return { group: params.group, clusterId: Number(params.clusterId) };
}

function pagingNumber(
  field: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^\d{1,16}$/.test(text) || value < min || value > max) {
    throw new AppError('clusterPagingInvalid', {
      field,
      reason: `must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'the cluster size' : max}.`,
    });
  }
  return value;
}

// Registered in the root context (what fastify-plugin does), so `app.pointTiles` is visible to the app.
Object.assign(pointTileRoutes, { [Symbol.for('skip-override')]: true });
