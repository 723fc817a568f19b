import type { Store } from '../../store/store';
import type { NewUser, User } from '../../store/schema';

/** Account queries: Kysely only, no rules. */

export async function findUserById(store: Store, id: string): Promise<User | undefined> {
  return store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By username or email, case-insensitively (both are unique that way). */
export async function findUserByLogin(store: Store, login: string): Promise<User | undefined> {
  const lower = login.toLowerCase();
  return store.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_lower', '=', lower), eb('email_lower', '=', lower)]))
    .executeTakeFirst();
}

export async function findClash(
  store: Store,
  usernameLower: string,
  emailLower: string,
): Promise<{ username: boolean; email: boolean }> {
  const rows = await store.db
    .selectFrom('users')
    .select(['username_lower', 'email_lower'])
    .where((eb) => eb.or([eb('username_lower', '=', usernameLower), eb('email_lower', '=', emailLower)]))
    .execute();
  return {
    username: rows.some((r) => r.username_lower === usernameLower),
    email: rows.some((r) => r.email_lower === emailLower),
  };
}

export async function insertUser(store: Store, user: NewUser): Promise<void> {
  await store.db.insertInto('users').values(user).execute();
}

export async function updatePasswordHash(
  store: Store,
  userId: string,
  hash: string,
  now: number,
): Promise<void> {
  await store.db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function setAvatar(
  store: Store,
  userId: string,
  asset: { id: string; mime: string; bytes: number; width: number; height: number },
  url: string,
  now: number,
): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('media_assets')
      .values({ ...asset, owner_userid: userId, created_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await tx
      .updateTable('users')
      .set({ avatar_url: url, updated_at: now })
      .where('id', '=', userId)
      .execute();
  });
}
