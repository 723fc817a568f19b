import type { FastifySchemaCompiler } from 'fastify';
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
