import { z } from 'zod';
import { isValidId, MAX_ID_LENGTH } from '../domain/ids';
import { AppError, ERRORS, fillPlaceholders, type ErrorName } from '../errors';
import { isValidEmail } from '../validation/accounts';
import { parseContract } from './contract';
import { userText } from './text';
import { normaliseText } from '../validation/text';
import { dateProblem, isValidPhone, normaliseLink, parseDate, parseFlag } from '../validation/points';

/**
 * What the point and event write contracts (points.ts, events.ts) share: the limits and field schemas
 * both use, domain issues (rules with their own error codes), the delete answer, and the parse that
 * turns a body into the catalogue's first error. One definition each, so a point's title and an
 * event's title can never be checked two ways.
 */

// ---------------------------------------------------------------------------------------------
// limits both points and events use (spec §9 where it gives them; the rest are bounds on what a person types)

export const TITLE_MAX_LENGTH = 120;
/** Stored length; the 250 of spec §9 is where the description collapses, see DESCRIPTION_COLLAPSE_CHARS. */
export const DESCRIPTION_MAX_LENGTH = 5000;
export const ADDRESS_MAX_LENGTH = 300;
export const SUBTYPE_MAX_LENGTH = 60;
export const LINK_MAX_LENGTH = 500;
/** Prices and budgets: non-negative, at most this, two decimals (spec §9: prices with two decimals). */
export const MAX_PRICE = 1_000_000;

// ---------------------------------------------------------------------------------------------
// domain issues: rules with their own error codes (7xxx), usable with or without zod

/** A broken rule with its catalogue entry, so the server answers with that code and the form shows the message. */
export interface DomainIssue {
  error: ErrorName;
  /** the field the form shows the message beside. */
  field: string;
  params: Record<string, string | number>;
}

export function domainMessage(issue: DomainIssue): string {
  return fillPlaceholders(ERRORS[issue.error].message, issue.params);
}

/** Throws a domain issue as its catalogue error: the server's check of a rule that needs stored state. */
export function throwIssue(issue: DomainIssue | null): void {
  if (issue) throw new AppError(issue.error, issue.params);
}

/** Adds a domain issue to a zod refinement context, carrying its catalogue name. */
export function addDomainIssue(ctx: z.RefinementCtx, issue: DomainIssue | null): void {
  if (!issue) return;
  ctx.addIssue({
    code: 'custom',
    path: issue.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    message: domainMessage(issue),
    params: { errorName: issue.error, values: issue.params },
  });
}

// ---------------------------------------------------------------------------------------------
// field schemas

/** Text a person types: normalised one way for every field (./text.ts, src/shared/validation/text.ts). */
export const text = (options: { multiline?: boolean } = {}) => userText(options);

/** '' and all-space (or all control characters) become null (the field is cleared); other text is trimmed. */
export const blankToNull = (value: unknown) =>
  typeof value === 'string' && normaliseText(value).trim() === '' ? null : value;
/** Optional, clearable text; control characters are removed (multi-line text keeps LF and tab). */
export function optionalText(max: number, { multiline = false } = {}) {
  return z.preprocess(
    blankToNull,
    text({ multiline }).trim().max(max, `must be at most ${max} characters long.`).nullable().optional(),
  );
}

export const titleSchema = text()
  .trim()
  .min(1, 'is required.')
  .max(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters long.`);

/** A number, also from a numeric string (form fields); '' is absent. */
export const numeric = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
function numberIn(min: number, max: number) {
  return z.preprocess(
    numeric,
    z
      .number({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be a number.') })
      .refine(Number.isFinite, 'must be a number.')
      .min(min, `must be between ${min} and ${max}.`)
      .max(max, `must be between ${min} and ${max}.`),
  );
}
export const latSchema = numberIn(-90, 90);
export const lonSchema = numberIn(-180, 180);

export function price() {
  return z.preprocess(
    (v) => numeric(blankToNull(v)),
    z
      .number({ error: 'must be a number.' })
      .min(0, 'may not be negative.')
      .max(MAX_PRICE, `must be at most ${MAX_PRICE}.`)
      .transform((v) => Math.round(v * 100) / 100)
      .nullable()
      .optional(),
  );
}

/** Booleans per social §5: true/false, 1/0, and the words on, checked, yes, off, no. */
export const flagSchema = z.unknown().transform((value, ctx) => {
  const flag = parseFlag(value);
  if (flag === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be true or false.' });
    return z.NEVER;
  }
  return flag;
});

/**
 * A date: epoch milliseconds or ISO 8601 text, nothing before 1901 (social §5). `nullable` dates may
 * be cleared with null or ''.
 */
export function dateSchema() {
  return z.unknown().transform((value, ctx): number => {
    const ms = parseDate(value);
    if (ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          value === undefined
            ? 'is required.'
            : 'Please enter a valid date (ISO 8601 or epoch milliseconds).',
      });
      return z.NEVER;
    }
    const problem = dateProblem(ms);
    if (problem === 'before1901') {
      // the field name is filled in from the issue's path by parsePointRequest
      ctx.addIssue({
        code: 'custom',
        message: 'dates before 1901 are invalid.',
        params: { errorName: 'dateBefore1901', values: {} },
      });
      return z.NEVER;
    }
    if (problem === 'tooLate') {
      ctx.addIssue({ code: 'custom', message: 'must be before the year 10000.' });
      return z.NEVER;
    }
    return ms;
  });
}
export const optionalDate = () => z.preprocess(blankToNull, dateSchema().nullable().optional());

export const emailLink = z.preprocess(
  blankToNull,
  text()
    .trim()
    .max(254, 'must be at most 254 characters long.')
    .refine(isValidEmail, 'Please enter a valid email address.')
    .nullable()
    .optional(),
);
export const phoneLink = z.preprocess(
  blankToNull,
  text().trim().refine(isValidPhone, 'Please enter a valid phone number.').nullable().optional(),
);
/** Website and facebook: http(s) URLs or bare host names (stored with https://). */
export const webLink = z.preprocess(
  blankToNull,
  text()
    .trim()
    .max(LINK_MAX_LENGTH, `must be at most ${LINK_MAX_LENGTH} characters long.`)
    .transform((value, ctx) => {
      const link = normaliseLink(value);
      if (!link) {
        ctx.addIssue({ code: 'custom', message: 'Please enter a valid URL.' });
        return z.NEVER;
      }
      return link;
    })
    .nullable()
    .optional(),
);

export const idSchema = () =>
  text()
    .trim()
    .min(1, 'is required.')
    .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters long.`)
    .refine(isValidId, `may contain only letters, digits, underscore (_) and hyphen (-).`);

export const versionSchema = z.preprocess(
  numeric,
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? 'is required (the version you loaded).' : 'must be a number.',
    })
    .int('must be a whole number.')
    .min(1, 'must be at least 1.'),
);

/** A media file as a base64 data URL (`data:image/png;base64,...`), or null to remove it. */
export const mediaDataSchema = z.union([text().min(1, 'is required (or null to remove).'), z.null()], {
  error: 'must be a base64 data URL, or null to remove.',
});

/**
 * The file part of a media upload sent as multipart/form-data (named `file`, after the fields). Only
 * documents the part: the file is streamed by the route, never parsed into the body.
 */
export const mediaFileSchema = z.string().meta({
  format: 'binary',
  description: 'the file, after the other fields (they are checked before it is read)',
});

export const deleteResponseSchema = z.object({ ok: z.literal(true), id: z.string() });

// ---------------------------------------------------------------------------------------------

/**
 * Parses `input` with `schema`, or throws the first problem as a catalogue error: a rule with its own
 * code (unknown type, end before start, date before 1901, ...) as that code, anything else as
 * `invalidField` naming the field: `{"errorcode":1003,"error":"lat: must be between -90 and 90."}`.
 */
export function parsePointRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return parseContract(schema, input ?? {});
}
