import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens';

describe('session and anti-forgery tokens', () => {
  const signer = new TokenSigner('k'.repeat(40));

  it('verifies its own tokens and names the same session id', () => {
    const { token, sessionId } = signer.issue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(signer.verify(token)).toBe(sessionId);
  });

  it('refuses a tampered token, a token signed with another secret, and junk', () => {
    const { token } = signer.issue();
    const flipped = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(signer.verify(flipped)).toBeNull();
    expect(new TokenSigner('z'.repeat(40)).verify(token)).toBeNull();
    for (const junk of ['', 'abc', `${token}x`, token.replace('.', '')])
      expect(signer.verify(junk)).toBeNull();
  });

  it('binds anti-forgery tokens to what they protect', () => {
    const a = { sessionId: 'a' };
    expect(signer.checkAntiforgery(a, signer.antiforgery(a))).toBe(true);
    expect(signer.checkAntiforgery({ sessionId: 'b' }, signer.antiforgery(a))).toBe(false);
    expect(signer.checkAntiforgery({ visitor: 'a' }, signer.antiforgery(a))).toBe(false);
    expect(signer.checkAntiforgery(a, undefined)).toBe(false);
  });
});
