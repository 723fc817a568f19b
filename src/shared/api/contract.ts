import { z } from 'zod';
import { AppError, ERRORS, type ErrorName } from '../errors';

/**
 * One translation from a failed contract to the catalogue's error, used by the server's validator for
 * every route (src/server/http/contract.ts) and by any service that parses with a contract by hand.
 *
 * A zod issue becomes an AppError in this order:
 * 1. the issue names its own catalogue entry (`params: {errorName, values}`, see `domainIssue`): a
 *    domain rule such as "end before start" or "not south of northeast";
 * 2. the contract maps the issue's top-level field to an entry (`withFieldErrors`): `q` answers
 *    `searchQueryInvalid` with the issue's message as its reason;
 * 3. otherwise `invalidField` (1003) with the issue's path as the field.
 * Only the first issue is answered: a form shows one problem at a time, as the API always did.
 */

/**
 * What a contract says about its fields' errors: field name (or ROOT for the body itself) → entry,
 * with fixed values for its message when the issue's own message is not the one the API answers.
 */
export type FieldError = ErrorName | { error: ErrorName; values: Record<string, string | number> };
export type FieldErrors = Partial<Record<string, FieldError>>;
/** The key in FieldErrors for an issue about the whole body (not an object, wrong type). */
export const ROOT = '';

const fieldErrorRegistry = z.registry<{ errors: FieldErrors; fallback?: FieldError }>();

/**
 * Names the catalogue entry each field's issues answer with. `fallback` covers the fields not listed
 * (instead of the generic invalidField). The message of the entry gets `field` (the path) and `reason`
 * (the issue's message).
 */
export function withFieldErrors<S extends z.ZodType>(
  schema: S,
  errors: FieldErrors,
  fallback?: ErrorName,
): S {
  fieldErrorRegistry.add(schema, fallback === undefined ? { errors } : { errors, fallback });
  return schema;
}

/** A custom zod issue that carries its catalogue entry, for refinements and preprocessors. */
export function domainIssue(
  name: ErrorName,
  values: Record<string, string | number> = {},
  path: PropertyKey[] = [],
): z.core.$ZodRawIssue {
  return {
    code: 'custom',
    path,
    input: undefined,
    message: 'reason' in values ? String(values['reason']) : name,
    params: { errorName: name, values },
  };
}

/** The first issue of a failed parse of `schema`, as the catalogue's error. */
export function contractError(schema: z.ZodType, error: z.ZodError): AppError {
  const issue = error.issues[0];
  const path = issue?.path ?? [];
  const field = path.length > 0 ? path.map(String).join('.') : 'body';
  const params =
    issue && 'params' in issue ? (issue.params as Record<string, unknown> | undefined) : undefined;
  if (params?.['appError'] instanceof AppError) return params['appError'];
  const named = params?.['errorName'];
  if (typeof named === 'string' && named in ERRORS) {
    const values = { field, ...((params?.['values'] as Record<string, string | number> | undefined) ?? {}) };
    // a rule that names no field of its own is about the field the issue sits on
    if (!values['field']) values['field'] = field;
    return new AppError(named as ErrorName, values);
  }
  const reason = issue?.message ?? 'is invalid.';
  const mapping = fieldErrorRegistry.get(schema);
  const top = path.length > 0 ? String(path[0]) : ROOT;
  const entry = mapping?.errors[top] ?? mapping?.fallback;
  if (typeof entry === 'string') return new AppError(entry, { field, reason });
  if (entry) return new AppError(entry.error, { field, reason, ...entry.values });
  return new AppError('invalidField', {
    field,
    reason: field === 'body' && issue?.code === 'invalid_type' ? 'must be a JSON object.' : reason,
  });
}

/**
 * A parser that throws the catalogue's errors (a tile address, a style query), as a zod transform:
 * its AppError is answered as it is, so its rules and messages stay in one place.
 */
export function catalogueParser<I, O>(parse: (input: I) => O) {
  return (input: I, ctx: z.RefinementCtx): O => {
    try {
      return parse(input);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message, params: { appError: error } });
      return z.NEVER;
    }
  };
}

/** A route's contract for a body: an absent body is an empty one, so each missing field is named. */
export function bodyContract<S extends z.ZodType>(schema: S) {
  return z.preprocess((body) => body ?? {}, schema);
}

/**
 * The multipart/form-data body of an upload route, for the document only: the plugin that reads
 * multipart leaves the body unread (its file is streamed by the handler, which parses the fields with
 * the route's field contract), so validation has nothing to check here and lets it through.
 */
export function multipartContract<S extends z.ZodType>(schema: S) {
  return z.preprocess(() => undefined, schema.optional());
}

/** Parses `input` with a contract, or throws the catalogue's error for its first issue. */
export function parseContract<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw contractError(schema, result.error);
}

// --- lenient form values ---------------------------------------------------------------------------
// Form posts carry only text, and a repeated form field arrives as an array: contracts that accept
// forms read their fields through these before the typed schema checks them.

/** A repeated form field's single value, and numbers as text; other values as they are. */
export function formText(value: unknown): unknown {
  if (Array.isArray(value) && value.length === 1) return formText(value[0]);
  return typeof value === 'number' ? String(value) : value;
}

/** A number from JSON or a form field ('12', '1e9'); absent or empty is undefined; other text as it is. */
export function formNumber(value: unknown): unknown {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (single === undefined || single === null || single === '') return undefined;
  if (typeof single === 'string' && single.trim() !== '' && Number.isFinite(Number(single)))
    return Number(single);
  return single;
}

const TRUE_WORDS = ['true', '1', 'on', 'yes'];
const FALSE_WORDS = ['false', '0', 'off', 'no'];

/** A boolean from JSON or a form field (true/false, 1/0, on/off, yes/no); absent or empty is undefined. */
export function formBoolean(value: unknown): unknown {
  const text = formText(value);
  if (text === undefined || text === null || text === '') return undefined;
  if (typeof text === 'string') {
    const lower = text.trim().toLowerCase();
    if (TRUE_WORDS.includes(lower)) return true;
    if (FALSE_WORDS.includes(lower)) return false;
  }
  return text;
}
