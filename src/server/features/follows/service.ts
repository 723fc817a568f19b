import type { FollowList } from '../../../shared/api/follows';
import { FOLLOWS_PAGE_SIZE } from '../../../shared/api/follows';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import type { SocialEvents } from '../social/events';
import * as q from './queries';

/**
 * Follows (issue 18; social §4, §7): one follow per pair (the table's key), never oneself. Each
 * change tells every page showing the person (`social:U:{id}`) their new counts, a new follow tells
 * the person (a notification), and an unfollow takes that notification back.
 */
export class FollowService {
  constructor(
    private readonly store: Store,
    private readonly social: SocialEvents,
  ) {}

  /** The person named by `user_id`, checked: present, not the viewer, existing. */
  private async target(viewer: NonNullable<Viewer>, userId: unknown) {
    if (userId === undefined || userId === null || userId === '') throw new AppError('followMissingUserId');
    const id = typeof userId === 'number' ? String(userId) : userId;
    if (typeof id !== 'string' || !isValidId(id))
      // never String() of what came: an object's own toString may throw
      throw new AppError('followUserNotFound', { id: typeof id === 'string' ? id.slice(0, 64) : typeof id });
    if (id === viewer.id) throw new AppError('followSelf');
    const user = await q.findUserById(this.store, id);
    if (!user) throw new AppError('followUserNotFound', { id });
    return user;
  }

  /** Follows; answers the person's follower count. Already followed: 122. */
  async follow(viewer: Viewer, userId: unknown, beforeWrite: () => Promise<void>): Promise<number> {
    const me = requireViewer(viewer);
    const user = await this.target(me, userId);
    await beforeWrite();
    const added = await q.addFollow(this.store, me.id, user.id, Date.now());
    if (!added) throw new AppError('alreadyFollowed');
    const counts = await this.announce(user.id, me.id);
    this.social.notify({
      recipientId: user.id,
      actorId: me.id,
      action: 'follow',
      objectType: 'U',
      objectId: me.id,
    });
    return counts.followers;
  }

  /** Stops following; idempotent (not following answers the count too). */
  async unfollow(viewer: Viewer, userId: unknown): Promise<number> {
    const me = requireViewer(viewer);
    const user = await this.target(me, userId);
    const removed = await q.removeFollow(this.store, me.id, user.id);
    if (!removed) return (await q.followCounts(this.store, user.id)).followers;
    const counts = await this.announce(user.id, me.id);
    // "Ana followed you." is no longer true: the notification goes, and the bell's count with it
    this.social.withdraw({
      recipientId: user.id,
      actorId: me.id,
      action: 'follow',
      objectType: 'U',
      objectId: me.id,
    });
    return counts.followers;
  }

  /** Both people's pages hear their new counts. */
  private async announce(followeeId: string, followerId: string) {
    const [followee, follower] = await Promise.all([
      q.followCounts(this.store, followeeId),
      q.followCounts(this.store, followerId),
    ]);
    this.social.object('U', followeeId, { kind: 'follows', data: { user_id: followeeId, ...followee } });
    this.social.object('U', followerId, { kind: 'follows', data: { user_id: followerId, ...follower } });
    return followee;
  }

  async list(
    viewer: Viewer,
    username: string,
    side: 'followers' | 'following',
    query: { pagenumber?: number | undefined; pagesize?: number | undefined },
  ): Promise<FollowList> {
    const user = await q.findUserByUsername(this.store, username);
    if (!user) throw new AppError('notFound');
    const pagenumber = query.pagenumber ?? 1;
    const pagesize = query.pagesize ?? FOLLOWS_PAGE_SIZE;
    const [rows, counts] = await Promise.all([
      q.followPage(this.store, user.id, side, (pagenumber - 1) * pagesize, pagesize),
      q.followCounts(this.store, user.id),
    ]);
    const followed = viewer
      ? await q.followedAmong(
          this.store,
          viewer.id,
          rows.map((row) => row.id),
        )
      : new Set<string>();
    return {
      items: rows.map((row) => ({ ...row, isfollowed: followed.has(row.id) ? 1 : 0 })),
      total: counts[side],
      pagenumber,
      pagesize,
    };
  }

  /** Whether the viewer follows `userId` (0 for a visitor). */
  async isFollowed(viewer: Viewer, userId: string): Promise<0 | 1> {
    if (!viewer) return 0;
    return (await q.followedAmong(this.store, viewer.id, [userId])).has(userId) ? 1 : 0;
  }
}
