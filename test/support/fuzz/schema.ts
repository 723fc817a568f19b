import fc from 'fast-check';

/**
 * The part of JSON Schema that the OpenAPI document at /openapi.json uses (zod 4's output through
 * fastify-type-provider-zod): enough to turn a request schema into a fast-check arbitrary.
 * json-schema-fast-check on npm was the library for this, but it is built on fast-check 1 and reads
 * neither `anyOf` nor type lists, so the few rules live here.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  examples?: unknown[];
  default?: unknown;
}

/**
 * Known good values for a field or parameter by its name (real ids, real categories, a real image),
 * as a list or, where each must differ (a new account's email), an arbitrary.
 */
export type Pools = Record<string, readonly unknown[] | fc.Arbitrary<unknown>>;

/** Longest string generated at random (a field's maximum length is still tried as a boundary). */
const RANDOM_STRING_MAX = 24;
/** Arrays stay short: the array limits are tried as boundaries. */
const RANDOM_ARRAY_MAX = 4;
/** A boundary string longer than this is left out (the body limit has its own hostile values). */
const BOUNDARY_STRING_MAX = 20_000;

/**
 * Values shaped as the schema asks, and its boundaries (the shortest and longest string, the lowest and
 * highest number, one step past each). `name` is the field's name, looked up in `pools` first.
 */
export function arbitraryFor(schema: JsonSchema, pools: Pools = {}, name?: string): fc.Arbitrary<unknown> {
  const known = name !== undefined ? poolOf(pools, name) : undefined;
  const shaped = shapedBy(schema, pools);
  if (!known) return shaped;
  return fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: shaped });
}

/** The known values of `name` as an arbitrary, or undefined when there are none. */
export function poolOf(pools: Pools, name: string): fc.Arbitrary<unknown> | undefined {
  const pool = pools[name];
  if (pool === undefined) return undefined;
  if (pool instanceof fc.Arbitrary) return pool;
  const values = pool as readonly unknown[];
  return values.length > 0 ? fc.constantFrom(...values) : undefined;
}

/** An object with only the fields its schema requires: the shortest request that can succeed. */
export function requiredOnly(schema: JsonSchema, pools: Pools = {}): fc.Arbitrary<unknown> {
  if (schema.type !== 'object' || !schema.properties) return arbitraryFor(schema, pools);
  const required = new Set(schema.required ?? []);
  return objectFor(
    {
      ...schema,
      properties: Object.fromEntries(Object.entries(schema.properties).filter(([key]) => required.has(key))),
    },
    pools,
  );
}

function shapedBy(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => shapedBy(alternative, pools)));
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length > 1) return fc.oneof(...types.map((type) => shapedBy({ ...schema, type }, pools)));
  switch (types[0]) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayFor(schema, pools);
    case 'object':
      return objectFor(schema, pools);
    default:
      // `{}`: a lenient field (a flag read from 'true', 1 or 'on'; a date as text or epoch ms)
      return lenientValue;
  }
}

const lenientValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.constantFrom('true', 'false', '1', '0', 'on', 'off', 'yes', ''),
  fc.constantFrom('2030-01-02T10:00:00Z', '2030-01-02', Date.UTC(2030, 0, 2, 10) as number),
  fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) }),
  fc.integer({ min: -1, max: 2 }),
  fc.constant(null),
  fc.string({ maxLength: RANDOM_STRING_MAX }),
);

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength;
  const within = (value: string) => value.length >= min && (max === undefined || value.length <= max);
  const random = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern)).filter(within)
    : fc.string({
        minLength: min,
        maxLength: Math.max(min, Math.min(max ?? RANDOM_STRING_MAX, RANDOM_STRING_MAX)),
      });
  const boundaries: string[] = [];
  if (min > 0) boundaries.push('x'.repeat(min - 1));
  if (max !== undefined && max <= BOUNDARY_STRING_MAX) boundaries.push('x'.repeat(max), 'x'.repeat(max + 1));
  const examples = (schema.examples ?? []).filter((value): value is string => typeof value === 'string');
  return fc.oneof(
    { weight: 6, arbitrary: random },
    { weight: 1, arbitrary: fc.constantFrom('', ...boundaries, ...examples) },
  );
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  const boundaries = [
    low,
    high,
    low === undefined ? undefined : low - 1,
    high === undefined ? undefined : high + 1,
  ]
    .filter((value): value is number => value !== undefined && Number.isFinite(value))
    .concat([0, -1]);
  const random = integer
    ? fc.integer({
        min: Math.max(low ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(high ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      })
    : fc.double({ min: low ?? -1_000_000, max: high ?? 1_000_000, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 5, arbitrary: random }, { weight: 1, arbitrary: fc.constantFrom(...boundaries) });
}

function arrayFor(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown[]> {
  const items = schema.items ? shapedBy(schema.items, pools) : lenientValue;
  const min = schema.minItems ?? 0;
  const random = fc.array(items, {
    minLength: min,
    maxLength: Math.max(min, Math.min(schema.maxItems ?? RANDOM_ARRAY_MAX, RANDOM_ARRAY_MAX)),
  });
  if (schema.maxItems === undefined || schema.maxItems > 1000) return random;
  // one past the most items allowed
  return fc.oneof(
    { weight: 5, arbitrary: random },
    {
      weight: 1,
      arbitrary: fc.array(items, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 }),
    },
  );
}

function objectFor(schema: JsonSchema, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [key, arbitraryFor(property, pools, key)]),
  );
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
}
