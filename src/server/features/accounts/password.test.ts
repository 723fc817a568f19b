import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('stores scrypt$N$r$p$salt$hash with a 16-byte salt and a 64-byte key', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const parts = stored.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(parts[4] ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(parts[5] ?? '', 'base64')).toHaveLength(64);
  });

  it('accepts the right password and rejects others', async () => {
    const stored = await hashPassword('xpoint-demo');
    expect(await verifyPassword('xpoint-demo', stored)).toBe(true);
    expect(await verifyPassword('xpoint-demo ', stored)).toBe(false);
    expect(await verifyPassword('Xpoint-demo', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash differently', async () => {
    const a = await hashPassword('same');
    const b = await hashPassword('same');
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('handles empty and non-ASCII passwords', async () => {
    const empty = await hashPassword('');
    expect(await verifyPassword('', empty)).toBe(true);
    expect(await verifyPassword(' ', empty)).toBe(false);
    const accented = await hashPassword('café-naïve-密码');
    expect(await verifyPassword('café-naïve-密码', accented)).toBe(true);
    // the same text in decomposed form is the same password
    expect(await verifyPassword('cafe\u0301-nai\u0308ve-密码', accented)).toBe(true);
  });

  it('rejects stored values that are missing, malformed or from another scheme', async () => {
    const stored = await hashPassword('pw');
    const [scheme, n, r, p, salt, key] = stored.split('$');
    const bad = [
      null,
      undefined,
      '',
      'plaintext',
      `bcrypt$${n}$${r}$${p}$${salt}$${key}`,
      `${scheme}$${n}$${r}$${p}$${salt}`,
      `${scheme}$1000$${r}$${p}$${salt}$${key}`, // N not a power of two
      `${scheme}$${2 ** 30}$${r}$${p}$${salt}$${key}`, // N absurdly large
      `${scheme}$${n}$0$${p}$${salt}$${key}`,
      `${scheme}$${n}$${r}$${p}$!!$${key}`,
      `${scheme}$${n}$${r}$${p}$${salt}$`,
    ];
    for (const value of bad) expect(await verifyPassword('pw', value)).toBe(false);
  });

  it('fails on a tampered hash', async () => {
    const stored = await hashPassword('pw');
    const parts = stored.split('$');
    const key = Buffer.from(parts[5] ?? '', 'base64');
    key[0] = (key[0] ?? 0) ^ 1;
    parts[5] = key.toString('base64');
    expect(await verifyPassword('pw', parts.join('$'))).toBe(false);
  });
});
