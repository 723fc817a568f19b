import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX, OPENAPI_PATH, PAGE_ROUTES } from '../../src/server/openapi/plugin';
import { openTestApp, type TestApp } from '../support/app';

/**
 * Routes the document leaves out on purpose, each with its reason. Everything else the server
 * answers must be in the document, and nothing else.
 */
const EXCLUDED: Record<string, string> = {
  [`GET ${OPENAPI_PATH}`]: 'the document itself',
  ...Object.fromEntries(
    ['', '/static/index.html', '/static/swagger-initializer.js', '/json', '/yaml', '/static/*'].map(
      (path) => [`GET ${DOCS_PREFIX}${path}`, 'the reader of the document (swagger-ui)'],
    ),
  ),
  ...Object.fromEntries(PAGE_ROUTES.map((path) => [`GET ${path}`, "the web app's pages: HTML for people"])),
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('GET /openapi.json', () => {
  let t: TestApp;
  const routes = new Set<string>();

  beforeAll(async () => {
    t = await openTestApp({
      onRoute: (route: RouteOptions) => {
        // HEAD is Fastify's automatic twin of each GET: OpenAPI describes the GET
        for (const method of [route.method].flat())
          if (method !== 'HEAD') routes.add(`${method} ${route.url}`);
      },
    });
  });
  afterAll(() => t.close());

  async function document() {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json() as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { summary?: string; tags?: string[]; responses?: Record<string, unknown> }>
      >;
    };
  }

  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the server has, and no other', async () => {
    const doc = await document();
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => METHODS.includes(method))
          // /v1/users/{username} is the route /v1/users/:username; /media/{*} is /media/*
          .map(
            (method) =>
              `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === '*' ? '*' : `:${name}`))}`,
          ),
      ),
    );
    const served = [...routes].filter((route) => !(route in EXCLUDED));
    expect(served.length).toBeGreaterThan(50);
    expect(
      served.filter((route) => !documented.has(route)).sort(),
      'routes missing from the document',
    ).toEqual([]);
    expect(
      [...documented].filter((route) => !routes.has(route)).sort(),
      'documented routes that do not exist',
    ).toEqual([]);
    for (const route of Object.keys(EXCLUDED))
      expect(routes.has(route), `excluded ${route} exists`).toBe(true);
  });

  it('gives every call a summary, a tag, its answer and its error responses', async () => {
    const doc = await document();
    for (const [path, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, name).toBeTruthy();
        expect(operation.tags?.length, name).toBeGreaterThan(0);
        const statuses = Object.keys(operation.responses ?? {});
        expect(
          statuses.some((status) => status.startsWith('2')) ||
            name.startsWith('GET /map') ||
            name.startsWith('GET /event'),
          name,
        ).toBe(true);
        expect(
          statuses.some((status) => /^[45]/.test(status)),
          name,
        ).toBe(true);
      }
  });

  it("documents a call's request fields and the catalogue errors it answers, with example codes", async () => {
    const doc = await document();
    const suggestions = doc.paths['/v1/app/searchsuggestions']?.['post'] as unknown as {
      requestBody: {
        content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }>;
      };
      responses: Record<
        string,
        { content: { 'application/json': { examples: Record<string, { value: unknown }> } } }
      >;
    };
    expect(Object.keys(suggestions.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    const body = suggestions.requestBody.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual([
      'q',
      'maxresults',
      'includeevents',
      'southwest',
      'northeast',
    ]);
    expect(body?.required).toEqual(['q']);
    const examples = Object.values(
      suggestions.responses['400']?.content['application/json'].examples ?? {},
    ).map((example) => example.value);
    expect(examples).toContainEqual({ errorcode: 5001, error: 'q: {reason}', field: 'q' });
    expect(examples).toContainEqual({ errorcode: 5003, error: '{field}: {reason}' });
  });

  it('documents the upload calls as multipart/form-data with a binary file, and as JSON', async () => {
    const doc = await document();
    for (const path of ['/v1/xpoint/media', '/v1/event/media', '/v1/account/avatar']) {
      const upload = doc.paths[path]?.['post'] as unknown as {
        requestBody: {
          content: Record<string, { schema: { properties: Record<string, { format?: string }> } }>;
        };
      };
      expect(Object.keys(upload.requestBody.content).sort(), path).toEqual([
        'application/json',
        'multipart/form-data',
      ]);
      expect(upload.requestBody.content['multipart/form-data']?.schema.properties['file']?.format, path).toBe(
        'binary',
      );
    }
  });

  it('serves the reader at /docs from local files only', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\//);
    const spec = await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
    expect(spec.json().paths['/healthz']).toBeDefined();
  });
});
