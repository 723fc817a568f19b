import { describe, expect, it } from 'vitest';
import { isGuessable, MIN_PASSWORD_SCORE, userInputsOf, type PasswordStrength } from './password-strength';
import { estimatePasswordStrength } from './zxcvbn';

describe('password strength', () => {
  it("lists the person's own words: username, email, its local part and its pieces, the name's words", () => {
    expect(
      userInputsOf({ username: 'rita_r', email: 'rita.rossi+xp@example.com', fullname: 'Rita Rossi' }),
    ).toEqual(['rita_r', 'rita.rossi+xp@example.com', 'rita.rossi+xp', 'rita', 'rossi', 'Rita', 'Rossi']);
  });

  it('refuses the username or email itself whatever the estimator says', () => {
    const generous: PasswordStrength = () => 4;
    expect(isGuessable('Rita_Rossi_1990', ['rita_rossi_1990'], generous)).toBe(true);
    expect(isGuessable('something-else', ['rita_rossi_1990'], generous)).toBe(false);
  });

  it.each([
    ['password', true],
    ['12345678', true],
    ['Summer2024!', true],
    ['iloveyou1', true],
    ['correct-horse-1', false],
    ['lantern-orchard-velvet', false],
  ])('with zxcvbn, %s is guessable: %s', (password, guessable) => {
    expect(isGuessable(password, [], estimatePasswordStrength)).toBe(guessable);
    expect(MIN_PASSWORD_SCORE).toBe(3);
  });
});
