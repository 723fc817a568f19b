import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SECRET_FILE = 'session-secret';

/**
 * The HMAC key for session and anti-forgery tokens: SESSION_SECRET when set, otherwise a random key
 * generated once into DATA_DIR/session-secret (mode 0600) and read back on every start, on SQLite and
 * PostgreSQL alike, so a restart keeps everyone signed in. Several processes behind a load balancer
 * must share SESSION_SECRET (or the file).
 */
export function sessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, SECRET_FILE);
  try {
    return readSecret(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const fresh = randomBytes(48).toString('base64url');
  try {
    // 'wx': if another process created it first, we read theirs instead of overwriting it
    fs.writeFileSync(file, `${fresh}\n`, { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecret(file);
    throw error;
  }
}

function readSecret(file: string): string {
  const value = fs.readFileSync(file, 'utf8').trim();
  if (value.length < 32)
    throw new Error(`${file} holds fewer than 32 characters; delete it or set SESSION_SECRET`);
  return value;
}
