import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (node:crypto), stored as one self-describing string:
 * `scrypt$N$r$p$saltB64$hashB64`, with a random 16-byte salt per password.
 * The parameters travel with the hash, so they can be raised later without breaking old hashes.
 */
const SCHEME = 'scrypt';
const COST = 16384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** Upper bounds accepted when verifying, so a crafted stored value cannot make us burn memory or time. */
const MAX_COST = 1 << 20;
const MAX_BLOCK_SIZE = 32;
const MAX_PARALLELISM = 16;
const MAX_KEY_LENGTH = 256;

function derive(plain: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(plain.normalize('NFC'), salt, keylen, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** 128 * N * r bytes is what scrypt needs; leave headroom over Node's 32 MiB default. */
function maxmemFor(cost: number, blockSize: number, parallelism: number): number {
  return 128 * cost * blockSize * parallelism + 32 * 1024 * 1024;
}

export async function hashPassword(plain: string): Promise<string> {
  if (typeof plain !== 'string') throw new TypeError('password must be a string');
  const salt = randomBytes(SALT_BYTES);
  const options = {
    N: COST,
    r: BLOCK_SIZE,
    p: PARALLELISM,
    maxmem: maxmemFor(COST, BLOCK_SIZE, PARALLELISM),
  };
  const key = await derive(plain, salt, KEY_LENGTH, options);
  return [SCHEME, COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  cost: number;
  blockSize: number;
  parallelism: number;
  salt: Buffer;
  key: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parseStored(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return null;
  const [, n, r, p, saltB64 = '', keyB64 = ''] = parts;
  const cost = Number(n);
  const blockSize = Number(r);
  const parallelism = Number(p);
  if (!Number.isInteger(cost) || cost < 2 || cost > MAX_COST || (cost & (cost - 1)) !== 0) return null;
  if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > MAX_BLOCK_SIZE) return null;
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > MAX_PARALLELISM) return null;
  if (!BASE64.test(saltB64) || !BASE64.test(keyB64)) return null;
  const salt = Buffer.from(saltB64, 'base64');
  const key = Buffer.from(keyB64, 'base64');
  if (salt.length === 0 || key.length === 0 || key.length > MAX_KEY_LENGTH) return null;
  return { cost, blockSize, parallelism, salt, key };
}

/** True when `plain` matches `stored`; false for a wrong password or a stored value that is not ours. */
export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<boolean> {
  if (typeof plain !== 'string' || typeof stored !== 'string') return false;
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const { cost, blockSize, parallelism, salt, key } = parsed;
  const options = { N: cost, r: blockSize, p: parallelism, maxmem: maxmemFor(cost, blockSize, parallelism) };
  const candidate = await derive(plain, salt, key.length, options);
  return candidate.length === key.length && timingSafeEqual(candidate, key);
}
