import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { useContracts } from '../http/contract';
import { EXTERNAL_ROUTE_DOCS, type RouteDocs } from './external';

/**
 * The web app's pages (its index.html at `/`, its built files at `/*` and its hashed ones at
 * `/assets/:file`, and `/search`, where a painted first screen's search form lands before the app took
 * over): HTML and scripts for browsers, not calls; left out of the document on purpose, like the
 * document and its reader themselves.
 */
export const PAGE_ROUTES = ['/', '/*', '/assets/:file', '/search'];

/** Where the document and its reader are served. */
export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs';

/**
 * Contracts drive routes: zod validates requests (contractValidator) and serializes responses, and
 * @fastify/swagger collects every route's contract into an OpenAPI 3.1 document at /openapi.json,
 * read at /docs with swagger-ui (served from its npm package: no request leaves the server).
 * Must be registered before the routes: swagger collects them as they are added.
 */
export async function registerContracts(app: FastifyInstance): Promise<void> {
  useContracts(app);
  // routes whose files keep their own parsing (the points split, static files) are documented from
  // a table; before swagger's own onRoute hook so that it sees the documentation
  app.addHook('onRoute', (route: RouteOptions) => {
    const method = [route.method].flat().find((name) => name !== 'HEAD') ?? 'GET';
    const docs = EXTERNAL_ROUTE_DOCS[`${method} ${route.url}`];
    if (docs && !route.schema?.summary)
      route.schema = { ...route.schema, hide: false, document: docs } as RouteOptions['schema'];
    else if (PAGE_ROUTES.includes(route.url)) route.schema = { ...route.schema, hide: true };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'XPoint API',
        version: '1',
        description:
          'Every call of the XPoint server. Errors are always `{errorcode, error, field?}` from the catalogue; each call lists the entries it can answer.',
      },
      tags: [
        { name: 'search', description: 'suggestions and map search' },
        { name: 'details', description: 'point and event details, callbacks, the inbox' },
        { name: 'points', description: 'writing points and events' },
        { name: 'accounts', description: 'sign-in, sessions, password, avatar' },
        { name: 'profiles', description: 'public profiles' },
        { name: 'permissions', description: 'what the viewer may do' },
        { name: 'live', description: 'beams and live activity' },
        { name: 'realtime', description: 'the long-poll transport of the realtime channel' },
        { name: 'map', description: 'base map tiles, glyphs, sprite and style' },
        { name: 'tiles', description: 'point tiles and clusters' },
        { name: 'media', description: 'uploaded and generated media' },
        { name: 'health', description: 'for load balancers' },
        { name: 'vitals', description: "real visitors' Core Web Vitals, per screen" },
      ],
    },
    transform: (document) => {
      const schema = document.schema as (RouteOptions['schema'] & { document?: RouteDocs }) | undefined;
      if (!schema?.document) return bodyPerContentType(document);
      const { document: docs, ...rest } = schema;
      return bodyPerContentType({ ...document, schema: { ...rest, ...docs } as typeof document.schema });
    },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send(app.swagger()),
  );
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * A body given per content type (`body: {content: {'application/json': {schema}, ...}}`, as the
 * upload routes take JSON or multipart/form-data) is converted type by type: the provider's transform
 * reads `body` as one zod schema. Any other route goes to the provider's transform as it is.
 */
function bodyPerContentType(document: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const body = (document.schema as { body?: unknown } | undefined)?.body;
  if (!isPerContentType(body)) return jsonSchemaTransform(document);
  const { body: _body, ...rest } = document.schema as Record<string, unknown>;
  const transformed = jsonSchemaTransform({ ...document, schema: rest as TransformInput['schema'] });
  const content: Record<string, { schema: unknown }> = {};
  for (const [type, { schema }] of Object.entries(body.content))
    content[type] = {
      schema: z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }),
    };
  return { ...transformed, schema: { ...transformed.schema, body: { content } } };
}

function isPerContentType(body: unknown): body is { content: Record<string, { schema: z.ZodType }> } {
  return typeof body === 'object' && body !== null && !(body instanceof z.ZodType) && 'content' in body;
}
