import type { PasswordStrength } from '../../../shared/validation/password-strength';

let loading: Promise<PasswordStrength | null> | undefined;

/**
 * The password strength estimator (zxcvbn and its word lists, ~900 KB gzipped), fetched the first time
 * a form that sets a password opens, never with the first scripts. If it cannot be fetched the form
 * goes on without it: the server applies the same check and its refusal is shown beside the field.
 */
export function loadPasswordStrength(): Promise<PasswordStrength | null> {
  loading ??= import('../../../shared/validation/zxcvbn').then(
    (module) => module.estimatePasswordStrength,
    () => {
      loading = undefined;
      return null;
    },
  );
  return loading;
}
