import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/features/accounts/password';
import { openStore } from '../../src/server/store/store';

/** `npm run user -- create ...` as an operator runs it: a real process against a fresh DATA_DIR. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function user(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/accounts-cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout.trim(), stderr: run.stderr.trim() };
}

describe('the users CLI', () => {
  it('creates an admin in a fresh store, migrating it first', async () => {
    const run = user(
      'create',
      '--username',
      'Boss',
      '--email',
      'boss@example.com',
      '--password',
      'long-enough-1',
      '--admin',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^created admin user Boss \(id [A-Za-z0-9_-]+\) in .*xpoint\.db$/);
    const store = await openStore({ dataDir });
    try {
      const row = await store.db
        .selectFrom('users')
        .selectAll()
        .where('username_lower', '=', 'boss')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        username: 'Boss',
        email: 'boss@example.com',
        fullname: 'Boss',
        is_admin: 1,
      });
      expect(await verifyPassword('long-enough-1', row.password_hash)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('exits 1 with one clear line on a duplicate, bad input or a wrong command, and creates nothing', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['create', '--username', 'boss', '--email', 'x@example.com', '--password', 'long-enough-1'],
        'xpoint user: --username: "boss" is already taken.',
      ],
      [
        ['create', '--username', 'other', '--email', 'BOSS@example.com', '--password', 'long-enough-1'],
        'xpoint user: --email: an account with this email address already exists.',
      ],
      [
        ['create', '--username', 'other', '--email', 'not-an-email', '--password', 'long-enough-1'],
        'xpoint user: --email: Please enter a valid email address.',
      ],
      [
        ['create', '--username', 'other', '--email', 'o@example.com', '--password', 'short'],
        'xpoint user: --password: must be at least 8 characters long.',
      ],
      [
        ['create', '--username', 'other', '--email', 'o@example.com', '--password', 'password123'],
        'xpoint user: --password: is too easy to guess. Avoid common passwords and your own name, username or email; a few unrelated words make a strong password.',
      ],
      [
        ['create', '--email', 'o@example.com', '--password', 'long-enough-1'],
        'xpoint user: --username: is required.',
      ],
      [
        ['delete', '--username', 'boss'],
        'xpoint user: usage: npm run user -- create --username U --email E --password P [--fullname F] [--admin]',
      ],
    ];
    for (const [args, line] of cases) {
      const run = user(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.split('\n'), args.join(' ')).toEqual([line]);
      expect(run.stdout).toBe('');
    }
    const store = await openStore({ dataDir });
    try {
      const users = await store.db.selectFrom('users').select('username').execute();
      expect(users.map((u) => u.username)).toEqual(['Boss']);
    } finally {
      await store.close();
    }
  });
});
