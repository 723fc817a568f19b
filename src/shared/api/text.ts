import { z } from 'zod';
import {
  BIDI_CONTROL_REASON,
  LONE_SURROGATE_REASON,
  normaliseText,
  textProblem,
  type TextOptions,
} from '../validation/text';

/**
 * The one schema for text a person types (titles, names, descriptions, taglines, addresses, claim
 * text, callback messages, contacts...): 'is required.' when absent, 'must be text.' for another type,
 * a lone surrogate or a bidirectional control refused with the field's error, then NFC without control
 * characters (src/shared/validation/text.ts). A ZodString still, so `.trim().min().max()` follow, and
 * lengths are counted on the normalised text. Passwords do not use it: they are compared as typed.
 */
export function userText(options: TextOptions = {}) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be text.') })
    .refine((value) => textProblem(value) !== LONE_SURROGATE_REASON, {
      message: LONE_SURROGATE_REASON,
      abort: true,
    })
    .refine((value) => textProblem(value) !== BIDI_CONTROL_REASON, {
      message: BIDI_CONTROL_REASON,
      abort: true,
    })
    .overwrite((value) => normaliseText(value, options));
}
