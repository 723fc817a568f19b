import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionSecret } from './secret';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the session secret', () => {
  it('uses SESSION_SECRET when set, and writes nothing', () => {
    const dir = tempDir();
    expect(sessionSecret('s'.repeat(40), dir)).toBe('s'.repeat(40));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('otherwise generates one into DATA_DIR/session-secret, readable only by us, and keeps it', () => {
    const dir = path.join(tempDir(), 'fresh');
    const first = sessionSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'session-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(sessionSecret(undefined, dir)).toBe(first);
  });

  it('refuses a file that holds too little to be a secret', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'session-secret'), 'short\n');
    expect(() => sessionSecret(undefined, dir)).toThrow(/fewer than 32 characters/);
  });
});
