import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startCheckpointer } from './checkpointer';

describe('the checkpoint worker', () => {
  let dir: string;
  let file: string;
  let database: SQLite.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-checkpoint-'));
    file = path.join(dir, 'x.db');
    database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.exec('create table notes (id integer primary key, body text not null)');
  });
  afterEach(() => {
    if (database.open) database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (rows: number) => {
    const insert = database.prepare('insert into notes (body) values (?)');
    for (let i = 0; i < rows; i++) insert.run('x'.repeat(1000));
  };
  const autocheckpoint = () => database.pragma('wal_autocheckpoint', { simple: true });

  test('given writes on the request connection, then they reach the database file from the worker, never from a commit', async () => {
    const checkpointer = startCheckpointer(database, file, { intervalMs: 20 });
    try {
      expect(autocheckpoint()).toBe(0);
      const before = fs.statSync(file).size;
      write(2000);
      // with autocheckpoint off, only the worker's checkpoint moves pages into the database file
      await expect
        .poll(() => fs.statSync(file).size, { timeout: 10_000 })
        .toBeGreaterThan(before + 1_000_000);
      expect(database.prepare('select count(*) as n from notes').get()).toEqual({ n: 2000 });
    } finally {
      await checkpointer.stop();
    }
  });

  test('given bursts of writes, then the WAL is rewound between them and does not grow', async () => {
    // the writer waits for a restart as the store's connection does
    database.pragma('busy_timeout = 5000');
    const checkpointer = startCheckpointer(database, file, { intervalMs: 20, restartPages: 1024 });
    const walSize = () => fs.statSync(`${file}-wal`).size;
    try {
      let firstBurst = 0;
      for (let burst = 0; burst < 6; burst++) {
        const before = fs.statSync(file).size;
        write(1500);
        firstBurst ||= walSize();
        // the worker has copied the burst into the database file
        await expect
          .poll(() => fs.statSync(file).size, { timeout: 10_000 })
          .toBeGreaterThan(before + 1_000_000);
      }
      // without a rewind the WAL would hold all six bursts (measured 37-55 MB against 9 MB a burst)
      expect(firstBurst).toBeGreaterThan(1_500_000);
      expect(walSize()).toBeLessThan(firstBurst * 2.5);
    } finally {
      await checkpointer.stop();
    }
  });

  test('given the worker fails, then SQLite checkpoints in the commits again and the failure is told', async () => {
    const failures: unknown[] = [];
    const checkpointer = startCheckpointer(database, file, {
      intervalMs: 20,
      onFailure: (error) => failures.push(error),
    });
    // a database file that is gone underneath the worker makes its next checkpoint fail
    await checkpointer.stop();
    expect(failures).toEqual([]);
    const broken = startCheckpointer(database, path.join(dir, 'missing.db'), {
      intervalMs: 20,
      onFailure: (error) => failures.push(error),
    });
    await expect.poll(() => failures.length, { timeout: 10_000 }).toBe(1);
    expect(autocheckpoint()).toBe(1000);
    await broken.stop();
  });
});
