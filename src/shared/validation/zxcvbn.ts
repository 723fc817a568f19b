import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonWords } from '@zxcvbn-ts/language-common';
import { dictionary as englishWords, translations } from '@zxcvbn-ts/language-en';
import type { PasswordStrength } from './password-strength';

/**
 * zxcvbn (Dropbox's password strength estimator, in TypeScript) with the common-password lists and
 * English words. About 1.5 MB of word lists: the server imports it once; the browser loads this
 * module lazily (web/features/accounts/passwordStrength.ts), never in its first scripts.
 */
let factory: ZxcvbnFactory | undefined;

/** Building the matchers takes ~350 ms, so it happens on the first check, not on import. */
function estimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...commonWords, ...englishWords },
    graphs: adjacencyGraphs,
    translations,
  });
  return factory;
}

export const estimatePasswordStrength: PasswordStrength = (password, userInputs) =>
  estimator().check(password, [...userInputs]).score;
