import fc from 'fast-check';
import { hostileText, hostileValue, rawBody, type RawBody } from './hostile';
import { arbitraryFor, poolOf, requiredOnly, type JsonSchema, type Pools } from './schema';

/** One operation of the OpenAPI document, as the fuzzer reads it. */
export interface Operation {
  method: string;
  /** the document's path, with `{name}` parameters. */
  path: string;
  parameters: {
    name: string;
    in: 'path' | 'query' | 'header' | 'cookie';
    required?: boolean;
    schema?: JsonSchema;
  }[];
  /** the request body's schema per content type. */
  bodies: Record<string, JsonSchema>;
  /** the properties each 4xx answer may have beyond the catalogue's `errorcode`, `error`, `field`. */
  errorExtras: Record<string, string[]>;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Operation['parameters'];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
      }
    >
  >;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const CATALOGUE_KEYS = ['errorcode', 'error', 'field'];

/** Every operation of the document (HEAD, Fastify's twin of each GET, is left to the raw-path requests). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        bodies: Object.fromEntries(
          Object.entries(operation.requestBody?.content ?? {}).map(([type, { schema }]) => [type, schema]),
        ),
        errorExtras: Object.fromEntries(
          Object.entries(operation.responses ?? {})
            .filter(([status]) => /^4/.test(status))
            .map(([status, response]) => [
              status,
              Object.keys(response.content?.['application/json']?.schema?.properties ?? {}).filter(
                (key) => !CATALOGUE_KEYS.includes(key),
              ),
            ]),
        ),
      })),
  );
}

/** What a request's body is: a JSON value, a form, a raw payload, or nothing. */
export type FuzzBody = { json: unknown } | { form: string } | { raw: RawBody } | undefined;

export interface FuzzRequest<I extends string = string> {
  /** `POST /v1/xpoint/create`, or `raw` for a mutated path. */
  operation: string;
  method: string;
  url: string;
  identity: I;
  body: FuzzBody;
  /** what was done to the request, for a failure's report. */
  mutation: string;
}

/** Keys a client has no business sending: the store's own columns, prototype names, privilege flags. */
const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'owner_userid',
  'consultant_userid',
  'is_admin',
  'isAdmin',
  'role',
  'version',
  'created_at',
  'health_status',
  'is_promo',
  'unknown_field',
];

type Mutated = { value: unknown; mutation: string };

/** The body as the schema asks, or with one thing wrong: a hostile field, a required field missing, extra fields. */
function bodyFor(schema: JsonSchema, pools: Pools, examples: readonly unknown[]): fc.Arbitrary<Mutated> {
  // every optional field at random makes most requests fail on one of them: half carry only the required
  // ones; bodies known to succeed (fields that depend on each other, as a type on its supertype) come too
  const shaped = fc.oneof(
    arbitraryFor(schema, pools),
    requiredOnly(schema, pools),
    ...(examples.length > 0 ? [fc.constantFrom(...examples)] : []),
  );
  const properties = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const asIs = shaped.map((value) => ({ value, mutation: 'schema-shaped' }));
  if (schema.type !== 'object' || properties.length === 0) return asIs;
  const record = shaped as fc.Arbitrary<Record<string, unknown>>;
  const mutations: fc.Arbitrary<Mutated>[] = [
    fc
      .tuple(
        record,
        fc.subarray(properties, { minLength: 1, maxLength: Math.min(3, properties.length) }),
        fc.array(hostileValue, { minLength: 3, maxLength: 3 }),
      )
      .map(([value, keys, bad]) => ({
        value: { ...value, ...Object.fromEntries(keys.map((key, i) => [key, bad[i]])) },
        mutation: `hostile ${keys.join(',')}`,
      })),
    fc.tuple(record, fc.subarray(EXTRA_KEYS, { minLength: 1 }), hostileValue).map(([value, keys, bad]) => {
      const extra = { ...value };
      // defineProperty, so `__proto__` becomes an own key that JSON.stringify sends
      for (const key of keys)
        Object.defineProperty(extra, key, {
          value: bad,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return { value: extra, mutation: `extra ${keys.join(',')}` };
    }),
  ];
  if (required.length > 0)
    mutations.push(
      fc.tuple(record, fc.constantFrom(...required)).map(([value, key]) => {
        const rest = { ...value };
        delete rest[key];
        return { value: rest, mutation: `missing ${key}` };
      }),
    );
  // one field of a nested object made hostile (the bounds of a search, a ticket, the help request's data)
  const nestedObjects = properties.filter((key) => schema.properties?.[key]?.type === 'object');
  if (nestedObjects.length > 0)
    mutations.push(
      fc
        .tuple(record, fc.constantFrom(...nestedObjects), fc.string({ maxLength: 12 }), hostileValue)
        .map(([value, key, inner, bad]) => {
          const innerKeys = Object.keys(schema.properties?.[key]?.properties ?? {});
          const name = innerKeys.length > 0 ? (innerKeys[inner.length % innerKeys.length] ?? inner) : inner;
          const current = value[key];
          const base = current && typeof current === 'object' && !Array.isArray(current) ? current : {};
          return { value: { ...value, [key]: { ...base, [name]: bad } }, mutation: `hostile ${key}.${name}` };
        }),
    );
  return fc.oneof({ weight: 3, arbitrary: asIs }, { weight: 3, arbitrary: fc.oneof(...mutations) });
}

/** A form body from an object, nested keys as `southwest[lat]`, as browsers and the lenient reader write them. */
function formOf(value: unknown): string {
  const form = new URLSearchParams();
  const add = (key: string, inner: unknown) => {
    if (inner !== null && typeof inner === 'object')
      for (const [name, item] of Object.entries(inner)) add(`${key}[${name}]`, item);
    else form.append(key, inner === null || inner === undefined ? '' : String(inner));
  };
  if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) add(key, item);
  else form.append('value', String(value));
  return form.toString();
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the three bytes a
 * careless encoder would write for it: invalid UTF-8 in the address, as an attacker can send.
 */
export function percentEncode(value: string): string {
  let encoded = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff)
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    else encoded += encodeURIComponent(char);
  }
  return encoded;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Requests for one operation: its parameters and body from their schemas (with known good values
 * from `pools` by field name, and whole bodies known to succeed from `examples`), sometimes made
 * hostile, sent as one of `identities`.
 */
export function requestsFor<I extends string>(
  operation: Operation,
  pools: Pools,
  identities: readonly I[],
  examples: readonly unknown[] = [],
): fc.Arbitrary<FuzzRequest<I>> {
  const name = `${operation.method} ${operation.path}`;
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');

  const pathValue = (param: Operation['parameters'][number]) =>
    fc.oneof(
      { weight: 6, arbitrary: arbitraryFor(param.schema ?? {}, pools, param.name).map(textOf) },
      { weight: 1, arbitrary: hostileText },
    );
  const path = fc
    .tuple(...pathParams.map((param) => pathValue(param).map((value) => [param.name, value] as const)))
    .map((values) =>
      values.reduce(
        // the media route's `{*}` keeps its slashes; other parameters are one segment each
        (url, [param, value]) =>
          url.replace(
            `{${param}}`,
            param === '*' ? value.split('/').map(percentEncode).join('/') : percentEncode(value),
          ),
        operation.path,
      ),
    );

  const queryValue = (param: Operation['parameters'][number]) =>
    fc.oneof(
      { weight: 6, arbitrary: arbitraryFor(param.schema ?? {}, pools, param.name) },
      { weight: 1, arbitrary: hostileValue },
    );
  const query = fc
    .tuple(
      ...queryParams.map((param) =>
        fc
          .option(queryValue(param), { freq: param.required ? 8 : 2, nil: undefined })
          .map((value) => [param.name, value] as const),
      ),
    )
    .map((entries) => {
      const search = new URLSearchParams();
      for (const [key, value] of entries) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) search.append(key, textOf(item));
      }
      const text = search.toString();
      return text ? `?${text}` : '';
    });

  const bodyTypes = Object.keys(operation.bodies);
  const hostileBodies: fc.Arbitrary<{ body: FuzzBody; mutation: string }>[] = [
    hostileValue.map((value) => ({ body: { json: value }, mutation: 'hostile body' })),
    rawBody.map((raw) => ({ body: { raw }, mutation: `raw body${raw.depth ? ` nested ${raw.depth}` : ''}` })),
  ];
  let body: fc.Arbitrary<{ body: FuzzBody; mutation: string }>;
  if (bodyTypes.length === 0)
    body =
      operation.method === 'GET'
        ? fc.constant({ body: undefined, mutation: 'no body' })
        : fc.oneof(
            { weight: 6, arbitrary: fc.constant({ body: undefined, mutation: 'no body' }) },
            ...hostileBodies,
          );
  else {
    const shaped = fc.constantFrom(...bodyTypes).chain((type) =>
      bodyFor(operation.bodies[type] ?? {}, pools, examples).map(({ value, mutation }) => ({
        body: type === 'application/x-www-form-urlencoded' ? { form: formOf(value) } : { json: value },
        mutation: `${mutation}${bodyTypes.length > 1 ? ` as ${type}` : ''}`,
      })),
    );
    body = fc.oneof({ weight: 10, arbitrary: shaped }, ...hostileBodies);
  }

  return fc
    .record({ path, query, body, identity: fc.constantFrom(...identities) })
    .map(({ path: url, query: search, body: { body: payload, mutation }, identity }) => ({
      operation: name,
      method: operation.method,
      url: url + search,
      identity,
      body: payload,
      mutation,
    }));
}

/**
 * Requests to mutated addresses: a documented path with one segment replaced by traversal, bad
 * percent-encoding, a huge segment or raw unicode, doubled slashes, another method, a 16 KB query.
 */
export function rawPathRequests<I extends string>(
  paths: readonly string[],
  pools: Pools,
  identities: readonly I[],
): fc.Arbitrary<FuzzRequest<I>> {
  const filled = fc.constantFrom(...paths).chain((template) => {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
    return fc
      .tuple(...names.map((param) => (poolOf(pools, param) ?? fc.constant('x')).map(textOf)))
      .map((values) =>
        names.reduce((url, param, i) => url.replace(`{${param}}`, percentEncode(values[i] ?? 'x')), template),
      );
  });
  const segmentSwaps = fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '..%5c..%5cwindows',
    '%2F',
    '%00',
    '%',
    '%zz',
    '%E0%A4%A',
    '%C0%AE%C0%AE',
    '%F0%9F%98',
    'é',
    '%EF%BB%BF',
    '%E2%80%AE',
    '%3Cscript%3E',
    '*',
    '',
    'a'.repeat(3000),
    '%25'.repeat(500),
  );
  const mutate = fc.oneof(
    fc.tuple(filled, segmentSwaps, fc.nat()).map(([url, swap, at]) => {
      const segments = url.split('/');
      const index = 1 + (at % Math.max(1, segments.length - 1));
      segments[index] = swap;
      return { url: segments.join('/'), mutation: `segment ${index} = ${swap.slice(0, 40)}` };
    }),
    fc.tuple(filled, fc.constantFrom('//', '/./', '/../', '/%2e/')).map(([url, join]) => ({
      url: url.replace('/', join),
      mutation: `joined with ${join}`,
    })),
    fc
      .tuple(filled, fc.constantFrom('/', '.json', '.mvt', '.php', '%20', '~', ';jsessionid=1', '#frag'))
      .map(([url, tail]) => ({ url: url + tail, mutation: `tail ${tail}` })),
    filled.map((url) => ({ url: url.toUpperCase(), mutation: 'upper case' })),
    fc
      .tuple(
        filled,
        fc.constantFrom(
          'a=1&a=2&a[b]=3',
          '__proto__[x]=1',
          `q=${'x'.repeat(16_000)}`,
          '%',
          'a=%zz',
          '&&&',
          '=',
          'a'.repeat(5000),
        ),
      )
      .map(([url, search]) => ({
        url: `${url}${url.includes('?') ? '&' : '?'}${search}`,
        mutation: `query ${search.slice(0, 40)}`,
      })),
    fc
      .constantFrom(
        '/v1',
        '/v1/',
        '/v1/nothing',
        '/api/../v1/account/me',
        '/socket/',
        '/tiles/',
        '/media/',
        '/media/..%2f..%2fxpoint.db',
        '/%2e%2e/%2e%2e/etc/passwd',
      )
      .map((url) => ({ url, mutation: 'unknown address' })),
  );
  return fc
    .record({
      target: mutate,
      method: fc.constantFrom('GET', 'GET', 'POST', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      identity: fc.constantFrom(...identities),
    })
    .map(({ target, method, identity }) => ({
      operation: 'raw',
      method,
      url: target.url,
      identity,
      body: method === 'POST' || method === 'PUT' || method === 'PATCH' ? { json: {} } : undefined,
      mutation: target.mutation,
    }));
}
