import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Session tokens are `<random>.<signature>`: 32 random bytes and an HMAC-SHA256 of them under the server
 * secret, both base64url. The signature lets us refuse a forged or tampered token without touching the
 * store; the store keeps only sha256(random) as the session id, so a copy of the database cannot be
 * replayed as tokens. Anti-forgery tokens are HMACs of what they are bound to (a session id, or a
 * visitor cookie), so they need no storage either.
 */
export class TokenSigner {
  constructor(private readonly secret: string) {}

  /** A fresh token and the session id (its hash) to store. */
  issue(): { token: string; sessionId: string } {
    const random = randomBytes(32).toString('base64url');
    return { token: `${random}.${this.sign(`session:${random}`)}`, sessionId: sessionIdOf(random) };
  }

  /** The session id a well-formed, correctly signed token names, or null. */
  verify(token: string): string | null {
    const match = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const [, random = '', signature = ''] = match;
    return safeEqual(signature, this.sign(`session:${random}`)) ? sessionIdOf(random) : null;
  }

  /** The anti-forgery token for a session id or a visitor cookie value. */
  antiforgery(binding: { sessionId: string } | { visitor: string }): string {
    return this.sign('sessionId' in binding ? `af:s:${binding.sessionId}` : `af:v:${binding.visitor}`);
  }

  checkAntiforgery(binding: { sessionId: string } | { visitor: string }, given: string | undefined): boolean {
    return typeof given === 'string' && safeEqual(given, this.antiforgery(binding));
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
}

function sessionIdOf(random: string): string {
  return createHash('sha256').update(random).digest('hex');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random value for the visitor anti-forgery cookie. */
export function randomVisitorId(): string {
  return randomBytes(24).toString('base64url');
}
