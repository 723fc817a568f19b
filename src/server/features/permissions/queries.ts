import type { Store } from '../../store/store';
import type { EventSubject, PointSubject } from '../../../shared/permissions';

/** What the permission rules need of a point: its supertype, settings and its people's names. */
export async function findPointSubject(store: Store, id: string): Promise<PointSubject | undefined> {
  const row = await store.db
    .selectFrom('points')
    .leftJoin('users as owner', 'owner.id', 'points.owner_userid')
    .leftJoin('users as consultant', 'consultant.id', 'points.consultant_userid')
    .select([
      'points.supertype',
      'points.allow_consulting',
      'owner.username as owner_username',
      'consultant.username as consultant_username',
    ])
    .where('points.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    supertype: row.supertype,
    allow_consulting: Number(row.allow_consulting),
    owner_username: row.owner_username ?? null,
    consultant_username: row.consultant_username ?? null,
  };
}

export async function findEventSubject(store: Store, id: string): Promise<EventSubject | undefined> {
  const row = await store.db
    .selectFrom('events')
    .leftJoin('users as owner', 'owner.id', 'events.owner_userid')
    .select(['owner.username as owner_username'])
    .where('events.id', '=', id)
    .executeTakeFirst();
  return row ? { owner_username: row.owner_username ?? null } : undefined;
}
