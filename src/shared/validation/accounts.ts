/**
 * The account form rules (issue 3, social §5), shared by the server, the users CLI and the web forms.
 * Messages are written for a person and name no internals; the field name is added by the caller.
 */

/** Letters, digits, underscore and hyphen; uniqueness is case-insensitive (kept as `username_lower`). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
export const FULLNAME_MAX_LENGTH = 100;
/** RFC 5321 caps a forward path at 254 characters and a local part at 64. */
export const EMAIL_MAX_LENGTH = 254;
const EMAIL_LOCAL_MAX_LENGTH = 64;
/** A bound on what scrypt is asked to hash, so a huge password cannot cost us time. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * Social §5: a local part, `@`, then a domain whose top level has at least 2 letters, or a
 * bracketed IPv4 address.
 */
export const EMAIL_PATTERN =
  /^[^\s@]+@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}|\[(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\])$/;

export function isValidEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  return (
    value.length <= EMAIL_MAX_LENGTH && at > 0 && at <= EMAIL_LOCAL_MAX_LENGTH && EMAIL_PATTERN.test(value)
  );
}

/** Social §5's password rule: minimum length, minimum non-alphanumeric characters, optional regex. */
export interface PasswordRule {
  minLength: number;
  minNonAlphanumeric: number;
  /** a regular expression source the whole password must match, or null. */
  pattern: string | null;
}

export const DEFAULT_PASSWORD_RULE: PasswordRule = { minLength: 8, minNonAlphanumeric: 0, pattern: null };

/** What is wrong with a password under `rule`, as a sentence fragment, or null when it is acceptable. */
export function passwordProblem(password: string, rule: PasswordRule): string | null {
  const length = [...password].length;
  if (length < rule.minLength) return `must be at least ${rule.minLength} characters long.`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long.`;
  const nonAlphanumeric = [...password].filter((ch) => !/[\p{L}\p{N}]/u.test(ch)).length;
  if (nonAlphanumeric < rule.minNonAlphanumeric) {
    const plural = rule.minNonAlphanumeric === 1 ? 'character' : 'characters';
    return `must contain at least ${rule.minNonAlphanumeric} ${plural} that are neither letters nor digits.`;
  }
  if (rule.pattern !== null && !new RegExp(`^(?:${rule.pattern})$`, 'u').test(password)) {
    return 'does not have the required form.';
  }
  return null;
}
