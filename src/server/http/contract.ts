import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contractError } from '../../shared/api/contract';

/**
 * Fastify's validator for every route: the route's zod contract parses the body, query, params or
 * headers, the handler gets the parsed (typed, defaulted, transformed) value, and a failure is the
 * catalogue's error for the first issue (src/shared/api/contract.ts). The error is returned as an
 * AppError rather than as Fastify's generic `validation` list, so the catalogue name and
 * values reach the error handler intact instead of being flattened into `instancePath` strings.
 */
export const contractValidator: FastifySchemaCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof z.ZodType))
    throw new Error(`${method} ${url}: route schemas are zod contracts (src/shared/api), not JSON Schema`);
  return (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: contractError(schema, result.error) };
  };
};

const unchecked = new WeakSet<object>();

/**
 * A response schema that documents the answer without being run on it, for a hot path where
 * encoding every answer through zod costs more than its budget allows (see where it is used for the
 * figure). The route's answer is sent with JSON.stringify, as Fastify does for a route with no schema.
 */
export function documentedOnly<S extends z.ZodType>(schema: S): S {
  const copy = schema.clone();
  unchecked.add(copy);
  return copy;
}

/** Responses go through their contract (zod encodes them, dropping fields it does not list). */
export const contractSerializer: FastifySerializerCompiler<unknown> = (route) =>
  unchecked.has(route.schema as object)
    ? (data) => JSON.stringify(data)
    : serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);

/**
 * Makes an app's routes take their zod contracts: requests are validated by contractValidator and
 * answers encoded by contractSerializer. buildApp does it (src/server/openapi/plugin.ts); so does any
 * app that registers routes without it (the benchmarks).
 */
export function useContracts(app: FastifyInstance): void {
  app.setValidatorCompiler(contractValidator);
  // responses go through their contract too (zod encodes them, dropping fields it does not list),
  // except where a route marks its schema documentedOnly
  app.setSerializerCompiler(contractSerializer);
}
