/**
 * Refusing common and easily guessed passwords (issue 16, finding 5), shared by the server, the users
 * CLI and the web forms. The estimator itself (zxcvbn, ./zxcvbn.ts) is big, so this module does not
 * import it: the server passes it in at start, the browser loads it when an account form opens.
 */

/** How many guesses an attacker would need, as zxcvbn's score 0–4 for `password`, knowing `userInputs`. */
export type PasswordStrength = (password: string, userInputs: readonly string[]) => number;

/**
 * The lowest zxcvbn score accepted: 3, "safely unguessable" (at least 10^8 guesses). Score 2 lets
 * through passwords built the way sprayed lists build them ("Summer2024!"); sign-in throttling stops
 * online guessing, but after a stolen database 10^8 scrypt guesses still cost days per account, where
 * 10^6 cost minutes. Three unrelated words, or a word with a number and a symbol in unusual places,
 * score 3 or 4.
 */
export const MIN_PASSWORD_SCORE = 3;

/** What a person typed elsewhere in the form: a password made of these is guessed first. */
export function userInputsOf(person: { username?: string; email?: string; fullname?: string }): string[] {
  const inputs: string[] = [];
  if (person.username) inputs.push(person.username);
  if (person.email) {
    inputs.push(person.email);
    const local = person.email.slice(0, person.email.lastIndexOf('@'));
    if (local) inputs.push(local, ...local.split(/[._+-]+/).filter((part) => part.length > 2));
  }
  if (person.fullname) inputs.push(...person.fullname.split(/\s+/).filter((part) => part.length > 2));
  return inputs;
}

/** True when `password` is too easy to guess: the username or email itself, a common password, or a low score. */
export function isGuessable(
  password: string,
  userInputs: readonly string[],
  strength: PasswordStrength,
): boolean {
  const lower = password.toLowerCase();
  // said outright, without asking the estimator: it could score a long email address well
  if (userInputs.some((input) => input.toLowerCase() === lower)) return true;
  return strength(password, userInputs) < MIN_PASSWORD_SCORE;
}
