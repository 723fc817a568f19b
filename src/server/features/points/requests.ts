import { sql } from 'kysely';
import { HealthStatus } from '../../../shared/domain/enums';
import type { Store } from '../../store/store';

/**
 * Claims and consultant requests (issue 16): Kysely only, no rules (those are in people.ts and the
 * authorisation table). A claim waits for an admin; a request to consult an owned point waits for its
 * owner. At most one pending of each per (point, user): the partial unique indexes of migration 0007
 * make a retry or a double click answer the existing one.
 */

/** The partial unique indexes' condition, as a literal: SQLite matches an upsert's index by its text. */
const PENDING_INDEX_WHERE = sql<boolean>`status = 'pending'`;

export interface PendingClaim {
  id: number;
  point_id: string;
  user_id: string;
  text: string | null;
  created_at: number;
}

/** The user's pending claim on the point, if any. */
export async function pendingClaimOf(store: Store, pointId: string, userId: string) {
  const row = await store.db
    .selectFrom('point_claims')
    .select(['id', 'point_id', 'user_id', 'text', 'created_at'])
    .where('point_id', '=', pointId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id), created_at: Number(row.created_at) } : undefined;
}

/**
 * Records a pending claim (or finds the user's existing one) and shows the point as verification
 * pending (map-and-search §3); the health status it had is kept for a decline to restore.
 */
export async function requestClaim(
  store: Store,
  pointId: string,
  userId: string,
  text: string | null,
  now: number,
): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    const point = await tx
      .selectFrom('points')
      .select(['health_status'])
      .where('id', '=', pointId)
      .executeTakeFirst();
    if (!point) return;
    const earlier = await tx
      .selectFrom('point_claims')
      .select(['previous_health_status'])
      .where('point_id', '=', pointId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    // with claims already pending, the point shows pending because of them: keep what was before them
    const previous = earlier ? earlier.previous_health_status : Number(point.health_status);
    await tx
      .insertInto('point_claims')
      .values({
        point_id: pointId,
        user_id: userId,
        text,
        created_at: now,
        status: 'pending',
        previous_health_status: previous,
        decided_at: null,
        decided_by: null,
      })
      .onConflict((oc) => oc.columns(['point_id', 'user_id']).where(PENDING_INDEX_WHERE).doNothing())
      .execute();
    await tx
      .updateTable('points')
      .set({
        health_status: HealthStatus.verificationpending,
        updated_at: now,
        version: sql<number>`version + 1`,
      })
      .where('id', '=', pointId)
      .where('health_status', '!=', HealthStatus.verificationpending)
      .execute();
  });
}

export interface ClaimInQueue {
  id: number;
  point_id: string;
  point_title: string;
  point_supertype: string;
  username: string;
  fullname: string;
  text: string | null;
  created_at: number;
}

/** The admins' queue: pending claims, oldest first. */
export async function pendingClaims(store: Store, limit: number): Promise<ClaimInQueue[]> {
  const rows = await store.db
    .selectFrom('point_claims')
    .innerJoin('points', 'points.id', 'point_claims.point_id')
    .innerJoin('users', 'users.id', 'point_claims.user_id')
    .select([
      'point_claims.id',
      'point_claims.point_id',
      'points.title as point_title',
      'points.supertype as point_supertype',
      'users.username',
      'users.fullname',
      'point_claims.text',
      'point_claims.created_at',
    ])
    .where('point_claims.status', '=', 'pending')
    .orderBy('point_claims.created_at')
    .orderBy('point_claims.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), created_at: Number(r.created_at) }));
}

export async function findPendingClaim(store: Store, id: number) {
  const row = await store.db
    .selectFrom('point_claims')
    .select(['id', 'point_id', 'user_id', 'previous_health_status'])
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/**
 * Approves a claim: the claimant owns the point, verified (§3), and every other pending claim on it is
 * declined. False when the point has an owner by now (nothing is written then). A claimant who was
 * the unowned point's consultant stops being it: one person is not both.
 */
export async function approveClaim(
  store: Store,
  claim: { id: number; point_id: string; user_id: string },
  adminId: string,
  now: number,
): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const owned = await tx
      .updateTable('points')
      .set({
        owner_userid: claim.user_id,
        health_status: HealthStatus.verified,
        consultant_userid: sql<
          string | null
        >`case when consultant_userid = ${claim.user_id} then null else consultant_userid end`,
        updated_at: now,
        version: sql<number>`version + 1`,
      })
      .where('id', '=', claim.point_id)
      .where('owner_userid', 'is', null)
      .executeTakeFirst();
    if (Number(owned.numUpdatedRows) === 0) return false;
    await tx
      .updateTable('point_claims')
      .set({ status: 'approved', decided_at: now, decided_by: adminId })
      .where('id', '=', claim.id)
      .execute();
    await tx
      .updateTable('point_claims')
      .set({ status: 'declined', decided_at: now, decided_by: adminId })
      .where('point_id', '=', claim.point_id)
      .where('status', '=', 'pending')
      .execute();
    return true;
  });
}

/** Declines a claim; when no other claim on the point is pending, its earlier health status returns. */
export async function declineClaim(
  store: Store,
  claim: { id: number; point_id: string; previous_health_status: number | null },
  adminId: string,
  now: number,
): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('point_claims')
      .set({ status: 'declined', decided_at: now, decided_by: adminId })
      .where('id', '=', claim.id)
      .where('status', '=', 'pending')
      .execute();
    const others = await tx
      .selectFrom('point_claims')
      .select('id')
      .where('point_id', '=', claim.point_id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (others) return;
    await tx
      .updateTable('points')
      .set({
        health_status: claim.previous_health_status ?? HealthStatus.undefined,
        updated_at: now,
        version: sql<number>`version + 1`,
      })
      .where('id', '=', claim.point_id)
      .where('health_status', '=', HealthStatus.verificationpending)
      .execute();
  });
}

// ---------------------------------------------------------------------------------------------
// consultant requests

export async function hasPendingRequest(store: Store, pointId: string, userId: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('consultant_requests')
    .select('id')
    .where('point_id', '=', pointId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return !!row;
}

/** Records the user's request to consult (a second one finds the first). */
export async function requestConsulting(store: Store, pointId: string, userId: string, now: number) {
  await store.db
    .insertInto('consultant_requests')
    .values({ point_id: pointId, user_id: userId, status: 'pending', created_at: now, decided_at: null })
    .onConflict((oc) => oc.columns(['point_id', 'user_id']).where(PENDING_INDEX_WHERE).doNothing())
    .execute();
}

export interface ConsultantRequestRow {
  id: number;
  user_id: string;
  username: string;
  fullname: string;
  avatar_url: string | null;
  created_at: number;
}

/** A point's pending requests, oldest first. */
export async function pendingRequests(store: Store, pointId: string): Promise<ConsultantRequestRow[]> {
  const rows = await store.db
    .selectFrom('consultant_requests')
    .innerJoin('users', 'users.id', 'consultant_requests.user_id')
    .select([
      'consultant_requests.id',
      'consultant_requests.user_id',
      'users.username',
      'users.fullname',
      'users.avatar_url',
      'consultant_requests.created_at',
    ])
    .where('consultant_requests.point_id', '=', pointId)
    .where('consultant_requests.status', '=', 'pending')
    .orderBy('consultant_requests.created_at')
    .orderBy('consultant_requests.id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), created_at: Number(r.created_at) }));
}

/** The pending request of the user named `username` (any case), if any. */
export async function pendingRequestBy(store: Store, pointId: string, username: string) {
  const row = await store.db
    .selectFrom('consultant_requests')
    .innerJoin('users', 'users.id', 'consultant_requests.user_id')
    .select(['consultant_requests.id', 'consultant_requests.user_id'])
    .where('consultant_requests.point_id', '=', pointId)
    .where('users.username_lower', '=', username.toLowerCase())
    .where('consultant_requests.status', '=', 'pending')
    .executeTakeFirst();
  return row ? { id: Number(row.id), user_id: row.user_id } : undefined;
}

/**
 * Accepts a request: its user becomes the consultant if the point still has none and its owner still
 * allows consulting; the point's other pending requests are declined. False when that no longer holds.
 */
export async function acceptRequest(
  store: Store,
  request: { id: number; user_id: string },
  pointId: string,
  now: number,
): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const set = await tx
      .updateTable('points')
      .set({ consultant_userid: request.user_id, updated_at: now, version: sql<number>`version + 1` })
      .where('id', '=', pointId)
      .where('consultant_userid', 'is', null)
      .where('allow_consulting', '=', 1)
      .executeTakeFirst();
    if (Number(set.numUpdatedRows) === 0) return false;
    await tx
      .updateTable('consultant_requests')
      .set({ status: 'accepted', decided_at: now })
      .where('id', '=', request.id)
      .execute();
    await tx
      .updateTable('consultant_requests')
      .set({ status: 'declined', decided_at: now })
      .where('point_id', '=', pointId)
      .where('status', '=', 'pending')
      .execute();
    return true;
  });
}

/** Declines one request, or (no id) every pending request of the point: consulting was turned off. */
export async function declineRequests(store: Store, pointId: string, now: number, requestId?: number) {
  await store.db
    .updateTable('consultant_requests')
    .set({ status: 'declined', decided_at: now })
    .where('point_id', '=', pointId)
    .where('status', '=', 'pending')
    .$if(requestId !== undefined, (q) => q.where('id', '=', requestId ?? 0))
    .execute();
}

/** What the viewer waits for on a point: their claim (an admin's answer), their request (the owner's). */
export async function viewerPending(
  store: Store,
  pointId: string,
  userId: string | null,
): Promise<{ viewer_claim_pending: boolean; viewer_request_pending: boolean }> {
  if (!userId) return { viewer_claim_pending: false, viewer_request_pending: false };
  const [claim, request] = await Promise.all([
    pendingClaimOf(store, pointId, userId),
    hasPendingRequest(store, pointId, userId),
  ]);
  return { viewer_claim_pending: !!claim, viewer_request_pending: request };
}
