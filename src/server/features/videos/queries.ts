import type { Selectable, Updateable } from 'kysely';
import type { Store } from '../../store/store';
import type { VideosTable } from '../../store/schema';

/** The store's side of videos (migration 0010's `videos` table). */

export type VideoRow = Selectable<VideosTable>;

export async function insertVideo(
  store: Store,
  video: { id: string; userId: string; bytes: number; now: number },
): Promise<void> {
  await store.db
    .insertInto('videos')
    .values({
      id: video.id,
      user_id: video.userId,
      state: 'uploading',
      error: null,
      bytes: video.bytes,
      duration_ms: null,
      width: null,
      height: null,
      mime: null,
      source_key: null,
      url: null,
      poster_url: null,
      created_at: video.now,
      updated_at: video.now,
    })
    .execute();
}

export function findVideo(store: Store, id: string): Promise<VideoRow | undefined> {
  return store.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Changes a video, only while it is in one of `from` (a job run twice, or a cancel racing the end of
 * an upload, changes nothing the second time); whether it did.
 */
export async function updateVideo(
  store: Store,
  id: string,
  from: ReadonlyArray<VideoRow['state']>,
  fields: Omit<Updateable<VideosTable>, 'id' | 'user_id' | 'created_at'>,
): Promise<boolean> {
  const result = await store.db
    .updateTable('videos')
    .set({ ...fields, updated_at: Date.now() })
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A cancelled upload is forgotten (nothing became of it yet). */
export async function deleteUploadingVideo(store: Store, id: string): Promise<void> {
  await store.db.deleteFrom('videos').where('id', '=', id).where('state', '=', 'uploading').execute();
}

/**
 * The video `userId` may attach to a post (posts' `video_id`): their own upload, in any state but
 * failed (a post may be saved while its video is still processed; it shows once ready).
 */
export function findAttachableVideo(store: Store, userId: string, id: string): Promise<VideoRow | undefined> {
  return store.db
    .selectFrom('videos')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('state', '!=', 'failed')
    .executeTakeFirst();
}
