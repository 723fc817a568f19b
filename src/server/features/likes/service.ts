import { randomUUID } from 'node:crypto';
import {
  LIKERS_PAGE_SIZE,
  NEW_ACCOUNT_AGE_MS,
  type LikeAddRequest,
  type LikeChangeTypeRequest,
  type LikeCounts,
  type LikeObjectType,
  type LikeRemoveRequest,
  type LikeRemoveResult,
  type LikeResult,
  type LikersPage,
  type LikersRequest,
} from '../../../shared/api/likes';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import * as q from './queries';

/** Which daily bucket a new like counts in: accounts younger than 7 days have the smaller one. */
export type LikeLimitKind = 'new' | 'established';

export interface LikeHooks {
  /** throws the catalogue's refusal (with when to try again) when the viewer's day is used up. */
  check(kind: LikeLimitKind): Promise<void>;
  /** counts one like the viewer really made. */
  count(kind: LikeLimitKind): Promise<void>;
}

const OBJECT_NAMES: Record<LikeObjectType, string> = { P: 'post', R: 'review', C: 'comment' };

/**
 * The rules of likes (issue 18; social §3, §4, §6): signed-in people like what they can see, once
 * per object; only the like's own author removes or changes it. Counts and the like are written in
 * one transaction (queries.ts); pages showing the object and its author hear of it after the commit.
 */
export class LikeService {
  constructor(
    private readonly store: Store,
    private readonly social: SocialEvents | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async add(viewer: Viewer, input: LikeAddRequest, hooks: LikeHooks): Promise<LikeResult> {
    const user = requireViewer(viewer);
    const target = await this.visibleTarget(user, input.objecttype, input.objectid);
    const standing = await q.findOwnLike(this.store.db, user.id, input.objecttype, input.objectid);
    // only a new like is limited, and counted once made: a retry of one that stands is answered
    const limitKind = standing ? undefined : await this.limitKind(user.id);
    if (limitKind) await hooks.check(limitKind);
    const id = randomUUID();
    let write: q.LikeWrite;
    try {
      write = await q.addLike(
        this.store.db,
        {
          id,
          user_id: user.id,
          object_type: input.objecttype,
          object_id: input.objectid,
          like_type: input.liketype,
        },
        this.now(),
      );
    } catch (error) {
      // the like was removed by another tab between this add's insert and its read: nothing written
      if (error instanceof q.NoSuchLike) throw new AppError('conflict');
      throw error;
    }
    if (write.changed) {
      this.emitCounts(write.like.objectType, write.like.objectId, write.counts);
    }
    if (write.like.id === id) {
      await hooks.count(limitKind ?? (await this.limitKind(user.id)));
      this.social?.notify({
        recipientId: target.authorId,
        actorId: user.id,
        action: 'like',
        objectType: input.objecttype,
        objectId: input.objectid,
      });
    }
    return likeResult(write);
  }

  async remove(viewer: Viewer, input: LikeRemoveRequest): Promise<LikeRemoveResult> {
    const user = requireViewer(viewer);
    const removed = await q.removeLike(this.store.db, input.likeid, user.id);
    if (!removed) throw new AppError('likeNotFound', { id: input.likeid });
    this.emitCounts(removed.like.objectType, removed.like.objectId, removed.counts);
    return { likeid: removed.like.id, ...countsBody(removed.like, removed.counts) };
  }

  async changeType(viewer: Viewer, input: LikeChangeTypeRequest): Promise<LikeResult> {
    const user = requireViewer(viewer);
    const write = await q.changeLikeType(this.store.db, input.likeid, user.id, input.newliketype);
    if (!write) throw new AppError('likeNotFound', { id: input.likeid });
    if (write.changed) this.emitCounts(write.like.objectType, write.like.objectId, write.counts);
    return likeResult(write);
  }

  /** The object's likers, newest first, LIKERS_PAGE_SIZE a page; anyone who can see the object. */
  async likers(viewer: Viewer, input: LikersRequest): Promise<LikersPage> {
    await this.visibleTarget(viewer, input.objecttype, input.objectid);
    const before = input.before ? parseCursor(input.before) : undefined;
    const [rows, counts] = await Promise.all([
      q.likers(this.store.db, {
        objectType: input.objecttype,
        objectId: input.objectid,
        likeType: input.liketype,
        before,
        viewerId: viewer?.id ?? null,
        limit: LIKERS_PAGE_SIZE + 1,
      }),
      q.countsOf(this.store.db, input.objecttype, input.objectid),
    ]);
    const page = rows.slice(0, LIKERS_PAGE_SIZE);
    const last = page.at(-1);
    return {
      objecttype: input.objecttype,
      objectid: input.objectid,
      ...counts,
      items: page.map(({ likeId: _likeId, ...liker }) => liker),
      hasmore: rows.length > LIKERS_PAGE_SIZE,
      next: rows.length > LIKERS_PAGE_SIZE && last ? `${last.likedon}.${last.likeId}` : null,
    };
  }

  /** The object if it exists and the viewer may see it (a hidden post: its author and admins). */
  private async visibleTarget(viewer: Viewer, type: LikeObjectType, id: string): Promise<q.LikeTarget> {
    const target = await q.findTarget(this.store.db, type, id);
    const hiddenFromViewer =
      target?.hiddenAt !== null && target?.hiddenAt !== undefined && viewer?.id !== target.authorId;
    if (!target || (hiddenFromViewer && !viewer?.isAdmin))
      throw new AppError('likeObjectNotFound', { what: OBJECT_NAMES[type], id });
    return target;
  }

  private async limitKind(userId: string): Promise<LikeLimitKind> {
    const createdAt = await q.userCreatedAt(this.store.db, userId);
    return createdAt !== undefined && this.now() - createdAt >= NEW_ACCOUNT_AGE_MS ? 'established' : 'new';
  }

  private emitCounts(objectType: LikeObjectType, objectId: string, counts: q.Counts): void {
    this.social?.emit({
      kind: 'object',
      objectType,
      objectId,
      message: { kind: 'likes', data: { objecttype: objectType, objectid: objectId, ...counts } },
    });
  }
}

function countsBody(like: q.StoredLike, counts: q.Counts): LikeCounts {
  return { objecttype: like.objectType, objectid: like.objectId, up: counts.up, down: counts.down };
}

function likeResult(write: q.LikeWrite): LikeResult {
  return {
    replid: write.like.id,
    likeid: write.like.id,
    liketype: write.like.likeType,
    changed: write.changed,
    ...countsBody(write.like, write.counts),
  };
}

/** `before` as the previous page's `next` gave it: "{created_at}.{like id}". */
function parseCursor(text: string): q.LikersCursor {
  const dot = text.indexOf('.');
  const at = Number(text.slice(0, dot));
  const id = text.slice(dot + 1);
  if (dot < 1 || !Number.isSafeInteger(at) || !isValidId(id))
    throw new AppError('invalidField', { field: 'before', reason: 'is not a position this list gave.' });
  return { at, id };
}
