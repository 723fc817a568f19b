import { z } from 'zod';
import { domainIssue, parseContract } from './contract';
import { userText } from './text';
import { ERRORS } from '../errors';
import { isGuessable, userInputsOf, type PasswordStrength } from '../validation/password-strength';
import {
  EMAIL_MAX_LENGTH,
  FULLNAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
  isValidEmail,
  passwordProblem,
  type PasswordRule,
} from '../validation/accounts';

/**
 * Request and response contracts of /v1/account/* (issue 3). The routes validate every body with
 * these; a failure becomes `invalidField` (400) naming the field and saying what it expects
 * (src/shared/api/contract.ts).
 */

/** A text field: 'is required.' when absent, 'must be text.' when another type arrives. */
const text = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be text.') });

/**
 * Names and addresses a person types, normalised (./text.ts); leading and trailing spaces are never
 * meant, and an all-space value counts as empty. Passwords keep `text()`: compared as typed.
 */
const trimmedText = () => userText().trim();

export const usernameSchema = trimmedText()
  .min(1, 'is required.')
  .min(USERNAME_MIN_LENGTH, `must be at least ${USERNAME_MIN_LENGTH} characters long.`)
  .max(USERNAME_MAX_LENGTH, `must be at most ${USERNAME_MAX_LENGTH} characters long.`)
  .regex(USERNAME_PATTERN, 'may contain only letters, digits, underscore (_) and hyphen (-).');

export const emailSchema = trimmedText()
  .min(1, 'is required.')
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters long.`)
  .refine(isValidEmail, 'Please enter a valid email address.');

export const fullnameSchema = trimmedText()
  .min(1, 'is required.')
  .max(FULLNAME_MAX_LENGTH, `must be at most ${FULLNAME_MAX_LENGTH} characters long.`);

/** A new password, checked against the configured rule (PASSWORD_MIN_LENGTH and friends). */
export function newPasswordSchema(rule: PasswordRule) {
  return text()
    .min(1, 'is required.')
    .superRefine((value, ctx) => {
      const problem = passwordProblem(value, rule);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/** A password being checked, not chosen: only its presence and a sane length. */
const givenPassword = text()
  .min(1, 'is required.')
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters long.`);

/** The refusal of a guessable password; its reason is what a form shows under the field. */
const guessable = (field: string) =>
  domainIssue(
    'passwordTooGuessable',
    { reason: ERRORS.passwordTooGuessable.message.replace('{field}: ', '') },
    [field],
  );

/**
 * Sign-up. With a strength estimator (the server always passes one; the web form once it has loaded),
 * a password that is common, the username or email itself, or otherwise easy to guess is refused with
 * `passwordTooGuessable` (issue 16, finding 5).
 */
export function registerRequestSchema(rule: PasswordRule, strength?: PasswordStrength) {
  return z
    .object({
      username: usernameSchema,
      email: emailSchema,
      fullname: fullnameSchema,
      password: newPasswordSchema(rule),
    })
    .superRefine((values, ctx) => {
      if (strength && isGuessable(values.password, userInputsOf(values), strength))
        ctx.addIssue(guessable('password'));
    });
}
export type RegisterRequest = z.infer<ReturnType<typeof registerRequestSchema>>;

export const loginRequestSchema = z.object({
  /** a username or an email address. */
  login: trimmedText()
    .min(1, 'is required.')
    .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters long.`),
  password: givenPassword,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * A password change. `account` is who is changing it, when known (the web form knows; the server
 * checks the account's own names again in the service, after loading it).
 */
export function changePasswordRequestSchema(
  rule: PasswordRule,
  strength?: PasswordStrength,
  account: { username?: string; email?: string; fullname?: string } = {},
) {
  return z
    .object({ currentPassword: givenPassword, newPassword: newPasswordSchema(rule) })
    .superRefine((values, ctx) => {
      if (strength && isGuessable(values.newPassword, userInputsOf(account), strength))
        ctx.addIssue(guessable('newPassword'));
    });
}
export type ChangePasswordRequest = z.infer<ReturnType<typeof changePasswordRequestSchema>>;

/**
 * The avatar as JSON, a base64 data URL (`data:image/png;base64,...`) like the spec's cover image; or
 * as multipart/form-data, the picture in a part named `file` (avatarFormSchema).
 */
export const avatarRequestSchema = z.object({ image: text().min(1, 'is required.') });
/** The multipart avatar body as the OpenAPI document shows it. */
export const avatarFormSchema = z.object({
  file: z.string().meta({ format: 'binary', description: 'a JPEG, PNG, GIF or WebP picture, at most 10 MB' }),
});
export type AvatarRequest = z.infer<typeof avatarRequestSchema>;

/** The signed-in user as the API shows them to themselves. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  /** a URL path such as /media/<sha256>.webp, or null. */
  avatar: z.string().nullable(),
  isAdmin: z.boolean(),
});
export type AccountUser = z.infer<typeof userSchema>;

export const registerResponseSchema = z.object({ user: userSchema, token: z.string() });
export const loginResponseSchema = z.object({ user: userSchema, token: z.string(), antiforgery: z.string() });
export const meResponseSchema = z.object({ user: userSchema });
export const antiforgeryResponseSchema = z.object({ token: z.string() });
export const okResponseSchema = z.object({ ok: z.literal(true) });

export { ANTIFORGERY_HEADER } from './wire';
/** The Authorization scheme of API clients (social §6): `Authorization: appnettoken <token>`. */
export const TOKEN_SCHEME = 'appnettoken';

/**
 * Parses `input` with `schema` outside a route (the accounts CLI), or throws the catalogue's error
 * for the first problem: `{"errorcode":1003,"error":"username: is required."}`.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return parseContract(schema, input ?? {});
}
