import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Compression } from 'pmtiles';
import { z } from 'zod';
import { catalogueParser } from '../../shared/api/contract';
import { AppError } from '../../shared/errors';
import { TILE_PATHS, isExternalBasemap } from '../../shared/map/contract';
import type { Config } from '../config';
import { errorResponses } from '../openapi/errors';
import { TileArchive, parseTileAddress } from './basemap';
import { GlyphStore, parseGlyphRequest } from './glyphs';
import { SPRITE_FILES, SpriteFiles, etagOf, type SpriteFile } from './sprite';
import { buildStyle, parseStyleQuery, type BasemapMode, type StyleQuery } from './style';

/**
 * The map's HTTP surface apart from the point tiles: the style, basemap tiles, glyphs and sprite.
 * Assets come from dist/map/ (`npm run build:map`, run by `npm start` when missing); until they
 * exist these routes answer 503 with a message saying so.
 */

export interface MapRoutesOptions {
  config: Config;
  /** where build-map-assets wrote its output; default: `map/` beside the web build (dist/map). */
  mapDir?: string;
}

const TILE_CACHE = 'public, max-age=86400';
const GLYPH_CACHE = 'public, max-age=604800';
const SPRITE_CACHE = 'public, max-age=86400';
const STYLE_CACHE = 'public, max-age=300';
const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
const PBF_TYPE = 'application/x-protobuf';

export async function mapRoutes(app: FastifyInstance, options: MapRoutesOptions): Promise<void> {
  const mapDir = options.mapDir ?? path.join(path.dirname(options.config.webDir), 'map');
  const basemapSetting = options.config.basemap;
  const external = isExternalBasemap(basemapSetting);
  const archivePath =
    basemapSetting === undefined || external
      ? path.join(mapDir, 'basemap.pmtiles')
      : path.resolve(basemapSetting);
  const sprites = new SpriteFiles(mapDir);
  const glyphsDir = path.join(mapDir, 'glyphs');
  const glyphs = new GlyphStore(glyphsDir);

  let archive: Promise<TileArchive> | undefined;
  /** Opened on first use, so the server starts at once and a later build is picked up. */
  function openArchive(): Promise<TileArchive> {
    if (archive === undefined) {
      archive = TileArchive.open(archivePath).catch((error: unknown) => {
        archive = undefined;
        app.log.error({ err: error, archivePath }, 'cannot open the basemap archive');
        throw new AppError('mapAssetsMissing', {}, { cause: error });
      });
    }
    return archive;
  }
  app.addHook('onClose', async () => {
    const open = archive;
    archive = undefined;
    await open?.then((a) => a.close()).catch(() => undefined);
  });

  async function basemapMode(): Promise<BasemapMode> {
    if (external) return { kind: 'external', url: basemapSetting! };
    const { header } = await openArchive();
    return { kind: basemapSetting === undefined ? 'embedded' : 'protomaps', maxZoom: header.maxZoom };
  }

  app.get<{ Querystring: StyleQuery }>(
    TILE_PATHS.style,
    {
      schema: {
        summary: "The map's MapLibre style, pointing at this server's tiles, glyphs and sprite",
        tags: ['map'],
        querystring: styleQuery,
        response: {
          200: z.unknown().meta({ description: 'a MapLibre style document' }),
          ...errorResponses('unknownLayerGroup', 'badImageFormat', 'badStyleVersion'),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      // absolute URLs start with PUBLIC_URL, never with the request's Host or X-Forwarded-Host
      const style = buildStyle(options.config.publicUrl, await basemapMode(), query);
      const body = Buffer.from(JSON.stringify(style));
      return sendCached(request, reply, {
        body,
        etag: etagOf(body),
        type: 'application/json; charset=utf-8',
        cache: STYLE_CACHE,
      });
    },
  );

  app.get<{ Params: { z: string; x: string; y: string } }>(
    '/tiles/basemap/:z/:x/:y',
    {
      schema: {
        summary: 'A base map vector tile',
        description: "204 when the archive has no tile there; zooms are the archive's own.",
        tags: ['map'],
        // the zoom range is the archive's, read at run time: the address is checked by the handler
        params: z.object({ z: z.string(), x: z.string(), y: z.string() }),
        response: {
          200: binary('a Mapbox vector tile', MVT_TYPE),
          ...errorResponses('tileZoomOutOfRange', 'tileBadCoordinates', 'mapAssetsMissing', 'routeNotFound'),
        },
      },
    },
    async (request, reply) => {
      if (external) throw new AppError('routeNotFound', { method: 'GET', path: request.url.split('?')[0]! });
      const tiles = await openArchive();
      const { minZoom, maxZoom } = tiles.header;
      const address = parseTileAddress(request.params.z, request.params.x, request.params.y, {
        minZoom,
        maxZoom,
      });
      if (!address.ok) {
        if (address.kind === 'zoom') {
          throw new AppError('tileZoomOutOfRange', {
            source: 'basemap',
            z: address.z,
            min: minZoom,
            max: maxZoom,
          });
        }
        throw new AppError('tileBadCoordinates', { reason: address.reason });
      }
      const tile = await tiles.getTile(address.z, address.x, address.y);
      reply.header('Vary', 'Accept-Encoding');
      if (tile === null) return reply.status(204).header('Cache-Control', TILE_CACHE).send();
      const etag = etagOf(tile.data);
      if (tile.compression === Compression.Gzip) {
        if (acceptsGzip(request)) {
          reply.header('Content-Encoding', 'gzip');
          return sendCached(request, reply, { body: tile.data, etag, type: MVT_TYPE, cache: TILE_CACHE });
        }
        const identityEtag = `${etag.slice(0, -1)}-identity"`;
        if (matches(request, identityEtag)) return notModified(reply, identityEtag, TILE_CACHE);
        const plain = gunzipSync(tile.data);
        return sendCached(request, reply, {
          body: plain,
          etag: identityEtag,
          type: MVT_TYPE,
          cache: TILE_CACHE,
        });
      }
      return sendCached(request, reply, { body: tile.data, etag, type: MVT_TYPE, cache: TILE_CACHE });
    },
  );

  let glyphsBuilt = false;
  app.get<{ Params: { fontstacks: string[]; start: number } }>(
    '/tiles/glyphs/:fontstack/:range',
    {
      schema: {
        summary: 'Glyphs of a font stack for one block of 256 code points',
        tags: ['map'],
        params: glyphParams,
        response: {
          200: binary('signed distance field glyphs', PBF_TYPE),
          ...errorResponses('badGlyphRequest', 'mapAssetsMissing'),
        },
      },
    },
    async (request, reply) => {
      const parsed = request.params;
      if (!glyphsBuilt) {
        if (!fs.existsSync(glyphsDir)) throw new AppError('mapAssetsMissing');
        glyphsBuilt = true;
      }
      const file = await glyphs.get(parsed.fontstacks, parsed.start);
      reply.header('Vary', 'Accept-Encoding');
      if (acceptsGzip(request)) {
        reply.header('Content-Encoding', 'gzip');
        return sendCached(request, reply, {
          body: file.gzip,
          etag: `"${file.hash}"`,
          type: PBF_TYPE,
          cache: GLYPH_CACHE,
        });
      }
      return sendCached(request, reply, {
        body: file.plain,
        etag: `"${file.hash}-identity"`,
        type: PBF_TYPE,
        cache: GLYPH_CACHE,
      });
    },
  );

  for (const file of SPRITE_FILES) {
    const json = file.endsWith('.json');
    const spriteSchema = {
      summary: `The map's icon sprite${file.includes('@2x') ? ' at 2x' : ''}: its ${json ? 'index' : 'image'}`,
      tags: ['map'],
      response: {
        200: json
          ? z.unknown().meta({ description: 'icon name → {x, y, width, height, pixelRatio}' })
          : binary('the sprite sheet', 'image/png'),
        ...errorResponses('mapAssetsMissing'),
      },
    };
    app.get(
      `${path.posix.dirname(TILE_PATHS.sprite)}/${file}`,
      { schema: spriteSchema },
      async (request, reply) => {
        const cached = await sprites.get(file as SpriteFile).catch((error: unknown) => {
          throw new AppError('mapAssetsMissing', {}, { cause: error });
        });
        return sendCached(request, reply, {
          body: cached.data,
          etag: cached.etag,
          type: cached.contentType,
          cache: SPRITE_CACHE,
        });
      },
    );
  }
}

/** A response that is not JSON, for the document (Fastify sends buffers as they are). */
function binary(description: string, type: string) {
  return { description, content: { [type]: { schema: z.string().meta({ format: 'binary' }) } } };
}

const text = z.union([z.string(), z.array(z.string())]).optional();
/** The style's query: parseStyleQuery's rules and messages (3xxx), run as the route's schema. */
const styleQuery = z
  .object({
    layers: text.meta({ description: 'all, or layer groups comma-separated' }),
    imgformat: text.meta({ description: 'webp or png (default)' }),
    v: text.meta({ description: 'a cache-busting version: letters, digits, . _ -' }),
  })
  .transform(catalogueParser((query) => parseStyleQuery(query)));
/** `{fontstack}/{start}-{end}.pbf`: a 256-aligned block of one or more comma-separated fonts. */
const glyphParams = z
  .object({ fontstack: z.string(), range: z.string().meta({ examples: ['0-255.pbf'] }) })
  .transform(
    catalogueParser(({ fontstack, range }) => {
      const parsed = parseGlyphRequest(fontstack, range);
      if (!parsed.ok) throw new AppError('badGlyphRequest', { reason: parsed.reason });
      return parsed;
    }),
  );

/** gzip unless the client sent no Accept-Encoding, left gzip out, or refused it with q=0. */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

function notModified(reply: FastifyReply, etag: string, cache: string): FastifyReply {
  reply.removeHeader('Content-Encoding');
  return reply.status(304).header('ETag', etag).header('Cache-Control', cache).send();
}

function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  item: { body: Uint8Array; etag: string; type: string; cache: string },
): FastifyReply {
  if (matches(request, item.etag)) return notModified(reply, item.etag, item.cache);
  return reply
    .status(200)
    .header('ETag', item.etag)
    .header('Cache-Control', item.cache)
    .type(item.type)
    .send(Buffer.from(item.body.buffer, item.body.byteOffset, item.body.byteLength));
}
