import { openStore, type Store } from '../../../src/server/store/store';

/** Opens the store in `dataDir` (a running server's too), runs `work` on it and closes it again. */
export async function withStore<T>(dataDir: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The id of a seeded demo user (olivia, uma, admin …); throws when the seed has none of that name. */
export async function userId(store: Store, username: string): Promise<string> {
  const row = await store.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst();
  if (!row) throw new Error(`the demo user ${username} is missing`);
  return row.id;
}
