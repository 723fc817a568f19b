import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { catalogueParser } from '../../../shared/api/contract';
import { AppError } from '../../../shared/errors';
import { LAYER_GROUPS, isLayerGroup, type LayerGroup } from '../../../shared/map/contract';
import { errorResponses } from '../../openapi/errors';
import type { ChangeFollower } from '../../store/follower';
import type { Store } from '../../store/store';
import { PointTiles } from './service';
import { parseLayers, parseTileAddress, type TileAddress } from './tile-address';

/** Points change: a client revalidates after a few seconds, and the ETag makes that a 304. */
const TILE_CACHE_CONTROL = 'public, max-age=5';
const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
const binary = z.string().meta({ format: 'binary' });
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
  root,
  { store, follower },
) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tiles = await PointTiles.open(store, {
    follower,
    log: (message, details) => app.log.info(details ?? {}, message),
  });
  app.decorate('pointTiles', tiles);
  app.addHook('onClose', async () => tiles.close());

  const tileParams = z
    .object({
      z: z.string(),
      x: z.string(),
      y: z.string().meta({ description: 'the row, with or without .mvt' }),
    })
    .transform(catalogueParser(({ z: zoom, x, y }) => parseTileAddress(zoom, x, y)));
  const layersQuery = z
    .object({
      layers: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .meta({ description: `layer groups, comma-separated: some of ${LAYER_GROUPS.join(', ')}` }),
    })
    .transform(catalogueParser(({ layers }) => parseLayers(singleQuery(layers))));
  const clusterParams = z
    .object({ group: z.enum(LAYER_GROUPS), clusterId: z.string() })
    .transform(catalogueParser(({ group, clusterId }) => clusterOf(group, clusterId)));
  const pointTileErrors = errorResponses(
    'pointTileZoomOutOfRange',
    'pointTileBadAddress',
    'pointLayerGroupUnknown',
  );
  const clusterErrors = errorResponses('pointLayerGroupUnknown', 'clusterNotFound', 'clusterPagingInvalid');

  // a binary answer: typed by hand, as the type provider types JSON answers only
  root.get<{ Params: TileAddress; Querystring: LayerGroup[] }>(
    '/tiles/points/:z/:x/:y',
    {
      compress: false,
      schema: {
        summary: 'A vector tile of points and clusters, one layer per group',
        description: '204 when the tile is empty; an ETag makes a revalidation a 304.',
        tags: ['tiles'],
        params: tileParams,
        querystring: layersQuery,
        response: {
          200: { description: 'a Mapbox vector tile', content: { [MVT_TYPE]: { schema: binary } } },
          ...pointTileErrors,
        },
      },
    },
    async (request, reply) => {
      const { z: zoom, x, y } = request.params;
      const groups = request.query;
      const gzip = /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? ''));
      const etag = tiles.etag(zoom, x, y, groups);
      reply
        .header('Cache-Control', TILE_CACHE_CONTROL)
        .header('ETag', etag)
        .header('Vary', 'Accept-Encoding');
      if (matchesEtag(request, etag)) return reply.status(304).send();
      const { tile } = tiles.tile(zoom, x, y, groups, gzip);
      // an empty tile is 204 No Content: MapLibre treats it as a tile with no features
      if (!tile) return reply.status(204).send();
      reply.type(MVT_TYPE);
      if (gzip && tile.gzip) return reply.header('Content-Encoding', 'gzip').send(tile.gzip);
      return reply.send(tile.raw);
    },
  );

  const pagingQuery = z
    .object({
      limit: z.union([z.string(), z.array(z.string())]).optional(),
      offset: z.union([z.string(), z.array(z.string())]).optional(),
    })
    .transform(
      catalogueParser(({ limit, offset }) => ({
        limit: pagingNumber('limit', singleQuery(limit), LEAVES_DEFAULT_LIMIT, 1, LEAVES_MAX_LIMIT),
        offset: pagingNumber('offset', singleQuery(offset), 0, 0, Number.MAX_SAFE_INTEGER),
      })),
    );

  app.get(
    '/tiles/points/clusters/:group/:clusterId/leaves',
    {
      schema: {
        summary: "A page of a cluster's points",
        tags: ['tiles'],
        params: clusterParams,
        querystring: pagingQuery,
        response: {
          200: z.unknown().meta({ description: 'the points of the page and the total' }),
          ...clusterErrors,
        },
      },
    },
    async (request, reply) => {
      const { group, clusterId } = request.params;
      const { limit, offset } = request.query;
      const page = tiles.leaves(group, clusterId, offset, limit);
      if (!page) throw new AppError('clusterNotFound', { group, clusterId });
      return reply.header('Cache-Control', 'no-cache').send(page);
    },
  );

  app.get(
    '/tiles/points/clusters/:group/:clusterId/expansion-zoom',
    {
      schema: {
        summary: 'The zoom at which a cluster splits',
        tags: ['tiles'],
        params: clusterParams,
        response: { 200: z.object({ expansion_zoom: z.number() }), ...clusterErrors },
      },
    },
    async (request, reply) => {
      const { group, clusterId } = request.params;
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

function clusterOf(group: string, clusterId: string): { group: LayerGroup; clusterId: number } {
  if (!isLayerGroup(group))
    throw new AppError('pointLayerGroupUnknown', {
      name: JSON.stringify(group),
      groups: LAYER_GROUPS.join(', '),
    });
  if (!/^\d{1,16}$/.test(clusterId) || !Number.isSafeInteger(Number(clusterId)))
    throw new AppError('clusterNotFound', { group, clusterId });
  return { group, clusterId: Number(clusterId) };
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
