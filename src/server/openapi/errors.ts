import { z } from 'zod';
import { ERRORS, type ErrorName } from '../../shared/errors';

/** Every error body: the catalogue's code and message, and the field at fault when the message names one. */
export const errorBodySchema = z.object({
  errorcode: z.number().int().meta({ description: 'the catalogue code (src/shared/errors.ts)' }),
  error: z.string().meta({ description: 'the message, for people' }),
  field: z
    .string()
    .optional()
    .meta({ description: 'the request field at fault, when the message names one' }),
});

/**
 * The error responses of a call, grouped by status, each listing the catalogue entries it can answer
 * (code and message template as examples). Every call may also answer 500 internal.
 */
export function errorResponses(...names: ErrorName[]): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of new Set<ErrorName>([...names, 'internal'])) {
    const status = ERRORS[name].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  const responses: Record<number, z.ZodType> = {};
  for (const [status, entries] of byStatus) {
    responses[status] = errorBodySchema.meta({
      description: entries.map((name) => `${ERRORS[name].code} ${name}`).join('; '),
      examples: entries.map((name) => {
        const { code, message } = ERRORS[name];
        const field = /^([A-Za-z][\w.]*): /.exec(message)?.[1];
        return field ? { errorcode: code, error: message, field } : { errorcode: code, error: message };
      }),
    });
  }
  return responses;
}
