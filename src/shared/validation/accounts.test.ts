import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULE, isValidEmail, passwordProblem } from './accounts';

describe('email rule (social §5)', () => {
  it('accepts a local part, @ and a domain with a 2-letter top level, or a bracketed IP', () => {
    for (const ok of ['a@b.co', 'first.last+tag@mail.example.org', 'x@[192.168.0.1]', 'A_B@Example.COM']) {
      expect(isValidEmail(ok), ok).toBe(true);
    }
  });

  it('rejects missing parts, a 1-letter top level, spaces and bad IPs', () => {
    for (const bad of [
      '',
      'a',
      'a@',
      '@b.co',
      'a@b',
      'a@b.c',
      'a b@c.de',
      'a@b.c0',
      'a@[300.1.1.1]',
      'a@@b.co',
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
    expect(isValidEmail(`${'x'.repeat(65)}@example.com`)).toBe(false);
    expect(isValidEmail(`a@${'x'.repeat(250)}.com`)).toBe(false);
  });
});

describe('password rule (social §5)', () => {
  it('defaults to at least 8 characters', () => {
    expect(passwordProblem('1234567', DEFAULT_PASSWORD_RULE)).toBe('must be at least 8 characters long.');
    expect(passwordProblem('12345678', DEFAULT_PASSWORD_RULE)).toBeNull();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordProblem('密码密码密码密码', DEFAULT_PASSWORD_RULE)).toBeNull();
    expect(passwordProblem('😀😀😀😀', DEFAULT_PASSWORD_RULE)).toMatch(/at least 8/);
  });

  it('requires non-alphanumeric characters when configured', () => {
    const rule = { ...DEFAULT_PASSWORD_RULE, minNonAlphanumeric: 2 };
    expect(passwordProblem('abcdefgh1', rule)).toBe(
      'must contain at least 2 characters that are neither letters nor digits.',
    );
    expect(passwordProblem('abcdefg!1-', rule)).toBeNull();
  });

  it('applies an optional pattern to the whole password', () => {
    const rule = { ...DEFAULT_PASSWORD_RULE, pattern: '(?=.*\\d).*' };
    expect(passwordProblem('abcdefgh', rule)).toBe('does not have the required form.');
    expect(passwordProblem('abcdefg1', rule)).toBeNull();
  });

  it('caps the length', () => {
    expect(passwordProblem('x'.repeat(257), DEFAULT_PASSWORD_RULE)).toBe(
      'must be at most 256 characters long.',
    );
  });
});
