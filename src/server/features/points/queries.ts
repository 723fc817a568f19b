import { sql, type Transaction } from 'kysely';
import type { Database, NewPoint, PointUpdate } from '../../store/schema';
import type { Store } from '../../store/store';
import { pointsInBounds } from '../../store/geo';

/** Point write queries, and a person's points and events (my points): Kysely only, no rules (those are in service.ts). */

/** A point as the write paths need it: every stored field plus its people's usernames. */
export async function findPointForWrite(store: Store, id: string) {
  const row = await store.db
    .selectFrom('points')
    .leftJoin('users as owner', 'owner.id', 'points.owner_userid')
    .leftJoin('users as consultant', 'consultant.id', 'points.consultant_userid')
    .leftJoin('cities', 'cities.id', 'points.city_id')
    .selectAll('points')
    .select([
      'owner.username as owner_username',
      'consultant.username as consultant_username',
      'cities.city as known_city',
      'cities.iso2 as city_iso2',
      'cities.state as city_state',
    ])
    .where('points.id', '=', id)
    .executeTakeFirst();
  return row
    ? { ...row, version: Number(row.version), allow_consulting: Number(row.allow_consulting) }
    : undefined;
}
export type PointForWrite = NonNullable<Awaited<ReturnType<typeof findPointForWrite>>>;

export interface ContactRow {
  roleid: string;
  roleoverride: string | null;
  contact_firstname: string | null;
  contact_lastname: string | null;
  contact_username: string | null;
}

export async function pointContacts(store: Store, pointId: string): Promise<ContactRow[]> {
  return store.db
    .selectFrom('contacts')
    .select(['roleid', 'roleoverride', 'contact_firstname', 'contact_lastname', 'contact_username'])
    .where('point_id', '=', pointId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function pointScreenshots(store: Store, pointId: string) {
  return store.db
    .selectFrom('point_screenshots')
    .select(['position', 'url'])
    .where('point_id', '=', pointId)
    .orderBy('position')
    .execute();
}

/** Avatars of contacts that name a user of ours, by lower-cased username. */
async function replaceContacts(tx: Transaction<Database>, pointId: string, contacts: ContactRow[]) {
  await tx.deleteFrom('contacts').where('point_id', '=', pointId).execute();
  if (contacts.length === 0) return;
  const usernames = contacts.flatMap((c) => (c.contact_username ? [c.contact_username.toLowerCase()] : []));
  const avatars = new Map<string, string | null>();
  if (usernames.length > 0) {
    const users = await tx
      .selectFrom('users')
      .select(['username_lower', 'avatar_url'])
      .where('username_lower', 'in', usernames)
      .execute();
    for (const user of users) avatars.set(user.username_lower, user.avatar_url);
  }
  await tx
    .insertInto('contacts')
    .values(
      contacts.map((contact, position) => ({
        point_id: pointId,
        ...contact,
        avatar_url: contact.contact_username
          ? (avatars.get(contact.contact_username.toLowerCase()) ?? null)
          : null,
        position,
      })),
    )
    .execute();
}

/** Writes `set` and bumps the version, only if the point is still at `version`; false when it is not. */
async function bumpPoint(tx: Transaction<Database>, id: string, version: number, set: PointUpdate) {
  const result = await tx
    .updateTable('points')
    .set({ ...set, version: sql<number>`version + 1` })
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertPoint(store: Store, row: NewPoint, contacts: ContactRow[] | undefined) {
  await store.db.transaction().execute(async (tx) => {
    await tx.insertInto('points').values(row).execute();
    if (contacts) await replaceContacts(tx, row.id, contacts);
  });
}

/**
 * Writes `set` and bumps the version, only if the point is still at `version`. Returns the new version,
 * or null when someone else changed (or deleted) the point first: then nothing is written.
 */
export async function updatePointIfVersion(
  store: Store,
  id: string,
  version: number,
  set: PointUpdate,
  contacts: ContactRow[] | undefined,
): Promise<number | null> {
  return store.db.transaction().execute(async (tx) => {
    if (!(await bumpPoint(tx, id, version, set))) return null;
    if (contacts) await replaceContacts(tx, id, contacts);
    return version + 1;
  });
}

export async function deletePoint(store: Store, id: string): Promise<boolean> {
  const result = await store.db.deleteFrom('points').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Makes `userId` the owner if the point has none yet (atomic: two claimers cannot both win). */
export async function claimPoint(
  store: Store,
  id: string,
  userId: string,
  text: string | null,
  now: number,
): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('points')
      .set({ owner_userid: userId, updated_at: now, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('owner_userid', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await tx
      .insertInto('point_claims')
      .values({ point_id: id, user_id: userId, text, created_at: now })
      .execute();
    return true;
  });
}

/** Makes `userId` the consultant if the point has none yet. */
export async function setConsultant(store: Store, id: string, userId: string, now: number): Promise<boolean> {
  const result = await store.db
    .updateTable('points')
    .set({ consultant_userid: userId, updated_at: now, version: sql<number>`version + 1` })
    .where('id', '=', id)
    .where('consultant_userid', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the consultant, if it is still `consultantId`. */
export async function clearConsultant(
  store: Store,
  id: string,
  consultantId: string,
  now: number,
): Promise<boolean> {
  const result = await store.db
    .updateTable('points')
    .set({ consultant_userid: null, updated_at: now, version: sql<number>`version + 1` })
    .where('id', '=', id)
    .where('consultant_userid', '=', consultantId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Points within about `radiusM` of (lat, lon): a bounding box the spatial index answers; exact distance is the caller's. */
export async function pointsNear(store: Store, lat: number, lon: number, radiusM: number) {
  const dLat = radiusM / 111_320;
  const dLon = radiusM / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  const ids = await pointsInBounds(
    store,
    {
      south: Math.max(-90, lat - dLat),
      north: Math.min(90, lat + dLat),
      west: lon - dLon,
      east: lon + dLon,
    },
    500,
  );
  if (ids.length === 0) return [];
  return store.db
    .selectFrom('points')
    .select(['id', 'title', 'supertype', 'type', 'lat', 'lon'])
    .where('id', 'in', ids)
    .execute();
}

export interface StoredAsset {
  id: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
}

/** Who uploaded a file and when; the same bytes uploaded again are the same asset (content-addressed). */
export async function recordAsset(
  tx: Transaction<Database>,
  asset: StoredAsset,
  ownerUserId: string,
  now: number,
) {
  await tx
    .insertInto('media_assets')
    .values({ ...asset, owner_userid: ownerUserId, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** One upload's write to a point or an event: the file's url (null removes it) at the version loaded. */
export interface MediaWrite {
  id: string;
  version: number;
  url: string | null;
  asset: StoredAsset | null;
  ownerUserId: string;
  now: number;
}

/** The points columns that hold one media file each. */
export type PointMediaColumn = 'url_cover_image' | 'url_cover_video' | 'url_icon_or_logo';

/**
 * Records the asset and points the slot at it (or clears the slot when `url` is null), only if the
 * point is still at `version`. Returns the new version, or null when it is stale.
 */
export async function setPointMedia(
  store: Store,
  args: MediaWrite & { column: PointMediaColumn | null; positioned: PositionedMedia | null },
): Promise<number | null> {
  return store.db.transaction().execute(async (tx) => {
    const set: PointUpdate = { updated_at: args.now };
    if (args.column) set[args.column] = args.url;
    if (!(await bumpPoint(tx, args.id, args.version, set))) return null;
    if (args.asset) await recordAsset(tx, args.asset, args.ownerUserId, args.now);
    if (args.positioned !== null) {
      const { table, position } = args.positioned;
      await tx.deleteFrom(table).where('point_id', '=', args.id).where('position', '=', position).execute();
      if (args.url)
        await tx.insertInto(table).values({ point_id: args.id, position, url: args.url }).execute();
    }
    return args.version + 1;
  });
}

/** A file of a slot that holds many, each at a position: a screenshot or a health photo. */
export interface PositionedMedia {
  table: 'point_screenshots' | 'point_health_photos';
  position: number;
}

/** The health photos of a point by position (the edit form shows them whatever the status). */
export async function pointHealthPhotos(store: Store, pointId: string) {
  return store.db
    .selectFrom('point_health_photos')
    .select(['position', 'url'])
    .where('point_id', '=', pointId)
    .orderBy('position')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// my points

export interface MyPointRow {
  kind: 'point' | 'event';
  id: string;
  supertype: string;
  type: string;
  title: string;
  role: 'owner' | 'consultant' | 'claimant' | 'requester';
  cover: string | null;
  version: number;
  updated_at: number;
  start_date: number | null;
}

/**
 * One page of what the user runs, newest change first: points they own or consult, and events they
 * own. `supertype` narrows to one point supertype, or 'event' for events only.
 */
export async function myPoints(
  store: Store,
  userId: string,
  page: { supertype?: string; offset: number; limit: number },
): Promise<{ rows: MyPointRow[]; total: number }> {
  const wantPoints = page.supertype !== 'event';
  const wantEvents = page.supertype === undefined || page.supertype === 'event';
  const pendingClaim = store.db
    .selectFrom('point_claims')
    .select(sql`1`.as('one'))
    .where('point_claims.point_id', '=', sql.ref<string>('points.id'))
    .where('point_claims.user_id', '=', userId)
    .where('point_claims.status', '=', 'pending');
  const pendingRequest = store.db
    .selectFrom('consultant_requests')
    .select(sql`1`.as('one'))
    .where('consultant_requests.point_id', '=', sql.ref<string>('points.id'))
    .where('consultant_requests.user_id', '=', userId)
    .where('consultant_requests.status', '=', 'pending');
  const points = store.db
    .selectFrom('points')
    .select([
      sql<string>`'point'`.as('kind'),
      'id',
      'supertype',
      'type',
      'title',
      sql<string>`case when owner_userid = ${userId} then 'owner' when consultant_userid = ${userId} then 'consultant' when exists ${pendingClaim} then 'claimant' else 'requester' end`.as(
        'role',
      ),
      'url_cover_image as cover',
      'version',
      'updated_at',
      sql<number | null>`null`.as('start_date'),
    ])
    .where((eb) =>
      eb.or([
        eb('owner_userid', '=', userId),
        eb('consultant_userid', '=', userId),
        // what the user waits for shows too, marked pending (issue 16)
        eb.exists(pendingClaim),
        eb.exists(pendingRequest),
      ]),
    )
    .$if(page.supertype !== undefined && page.supertype !== 'event', (q) =>
      q.where('supertype', '=', page.supertype ?? ''),
    );
  const events = store.db
    .selectFrom('events')
    .select([
      sql<string>`'event'`.as('kind'),
      'id',
      sql<string>`'event'`.as('supertype'),
      'type',
      'title',
      sql<string>`'owner'`.as('role'),
      'cover_url as cover',
      'version',
      'updated_at',
      sql<number | null>`start_date`.as('start_date'),
    ])
    .where('owner_userid', '=', userId);

  const count = async () => {
    let total = 0;
    if (wantPoints)
      total += Number(
        (
          await points
            .clearSelect()
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    if (wantEvents)
      total += Number(
        (
          await events
            .clearSelect()
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return total;
  };

  const base = wantPoints && wantEvents ? points.unionAll(events) : wantPoints ? points : events;
  const rows = await store.db
    .selectFrom(base.as('mine'))
    .selectAll()
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'asc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return {
    rows: rows.map((r) => ({
      kind: r.kind as 'point' | 'event',
      id: r.id,
      supertype: r.supertype,
      type: r.type,
      title: r.title,
      role: r.role as MyPointRow['role'],
      cover: r.cover,
      version: Number(r.version),
      updated_at: Number(r.updated_at),
      start_date: r.start_date === null ? null : Number(r.start_date),
    })),
    total: await count(),
  };
}
