import type { FastifyBaseLogger } from 'fastify';
import {
  NOTIFICATIONS_PAGE_SIZE,
  NOTIFICATION_ACTIONS,
  NOTIFICATION_SHOWN_ACTORS,
  NOTIFICATION_WITHDRAWN_KIND,
  notificationText,
  type NotificationActionName,
  type NotificationItem,
  type NotificationPage,
} from '../../../shared/api/notifications';
import { SOCIAL_OBJECT_TYPES, type SocialObjectType } from '../../../shared/api/social-live';
import { AppError } from '../../../shared/errors';
import { decodeKeyCursor, encodeKeyCursor } from '../../http/cursor';
import type { Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import type { SocialEvent, SocialEvents } from '../social/events';
import {
  deleteForObject,
  groupActors,
  listGroups,
  markRead,
  objectUrls,
  recordNotification,
  unreadCount,
  withdrawNotification,
  type GroupRow,
} from './queries';

type NotifyEvent = Extract<SocialEvent, { kind: 'notify' }>;
type WithdrawEvent = Extract<SocialEvent, { kind: 'withdraw' }>;

/** A page cursor: the last group of the page, opaque to clients. */
export function encodeCursor(latest: number, group: string): string {
  return encodeKeyCursor(latest, group);
}

export function decodeCursor(cursor: string): { latest: number; group: string } {
  const pair = decodeKeyCursor(cursor, 'string');
  if (pair === null)
    throw new AppError('notificationCursorInvalid', {
      field: 'before',
      reason: 'not a cursor this list gave; start again without it',
    });
  return { latest: pair[0], group: pair[1] };
}

/**
 * In-app notifications (issue 18): written from the social events' `notify` (one row per person,
 * act, object and actor, so a double emit never doubles one), pushed at once on `user:{recipient}`
 * with the unread count, listed folded into groups.
 */
export class NotificationService {
  constructor(
    private readonly store: Store,
    private readonly social: SocialEvents,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Each recipient's notify and withdraw events, one after the other in the order they were emitted:
   * a follow taken back at once must not have its withdraw run before its notification is written.
   */
  private readonly queues = new Map<string, Promise<void>>();

  /** Listens to the social events; the returned function stops. */
  listen(): () => void {
    return this.social.on((event) => {
      if (event.kind === 'notify') return this.inTurn(event.recipientId, () => this.record(event));
      if (event.kind === 'withdraw') return this.inTurn(event.recipientId, () => this.withdraw(event));
    });
  }

  private inTurn(recipientId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(recipientId) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.queues.set(recipientId, next);
    const forget = () => {
      if (this.queues.get(recipientId) === next) this.queues.delete(recipientId);
    };
    next.then(forget, forget);
    return next;
  }

  /** An act undone: its notification goes, and the person's open pages hear the new unread count. */
  async withdraw(event: WithdrawEvent): Promise<void> {
    const removed = await withdrawNotification(this.store, event);
    if (!removed) return;
    const unread = await unreadCount(this.store, event.recipientId);
    this.social.user(event.recipientId, {
      kind: NOTIFICATION_WITHDRAWN_KIND,
      data: { unread, group: removed.group },
    });
  }

  async record(event: NotifyEvent): Promise<void> {
    if (event.recipientId === event.actorId) return;
    const saved = await recordNotification(this.store, {
      recipientId: event.recipientId,
      actorId: event.actorId,
      action: event.action,
      objectType: event.objectType,
      objectId: event.objectId,
      at: event.at,
    });
    if (!saved) return;
    const [group] = await listGroups(this.store, event.recipientId, 1, null, saved.group);
    const [item] = group ? await this.items(event.recipientId, [group]) : [];
    if (!item) return;
    const unread = await unreadCount(this.store, event.recipientId);
    this.social.user(event.recipientId, { kind: 'notification', data: { unread, item } });
  }

  async list(viewer: Viewer, query: { before?: string | undefined; limit?: number | undefined }) {
    const user = requireViewer(viewer);
    const limit = query.limit ?? NOTIFICATIONS_PAGE_SIZE;
    const after = query.before ? decodeCursor(query.before) : null;
    const groups = await listGroups(this.store, user.id, limit + 1, after);
    const page = groups.slice(0, limit);
    const last = page.at(-1);
    const result: NotificationPage = {
      items: await this.items(user.id, page),
      unread: await unreadCount(this.store, user.id),
      next: groups.length > limit && last ? encodeCursor(last.latest, last.group_key) : null,
    };
    return result;
  }

  async unread(viewer: Viewer): Promise<number> {
    return unreadCount(this.store, requireViewer(viewer).id);
  }

  async markRead(viewer: Viewer, upto: number | undefined): Promise<number> {
    const user = requireViewer(viewer);
    await markRead(this.store, user.id, upto, Date.now());
    const unread = await unreadCount(this.store, user.id);
    // the person's other tabs put their bell right
    this.social.user(user.id, { kind: 'notifications_read', data: { unread } });
    return unread;
  }

  /** The groups as list items; a group whose object is gone is forgotten, not shown. */
  private async items(recipientId: string, groups: GroupRow[]): Promise<NotificationItem[]> {
    const byType = new Map<string, string[]>();
    for (const group of groups) {
      if (group.action === 'follow') continue;
      const ids = byType.get(group.object_type) ?? [];
      ids.push(group.object_id);
      byType.set(group.object_type, ids);
    }
    const urls = new Map<string, Map<string, string>>();
    for (const [type, ids] of byType) urls.set(type, await objectUrls(this.store, type, ids));
    const items: NotificationItem[] = [];
    for (const group of groups) {
      if (
        !(NOTIFICATION_ACTIONS as readonly string[]).includes(group.action) ||
        !(SOCIAL_OBJECT_TYPES as readonly string[]).includes(group.object_type)
      )
        continue;
      const actors = await groupActors(this.store, recipientId, group.group_key, NOTIFICATION_SHOWN_ACTORS);
      const first = actors[0];
      if (!first) continue;
      let url: string | undefined;
      if (group.action === 'follow') url = `/u/${encodeURIComponent(first.username)}`;
      else url = urls.get(group.object_type)?.get(group.object_id);
      if (!url) {
        this.log.debug({ group: group.group_key }, 'notifications: the object is gone, forgetting them');
        await deleteForObject(this.store, group.object_type, group.object_id);
        continue;
      }
      const action = group.action as NotificationActionName;
      items.push({
        id: group.top_id,
        group: group.group_key,
        action,
        object_type: group.object_type as SocialObjectType,
        object_id: group.object_id,
        url,
        actors,
        actor_count: group.count,
        text: notificationText(
          action,
          group.object_type,
          actors.map((actor) => actor.fullname || actor.username),
          group.count,
        ),
        created_at: group.latest,
        unread: group.unread > 0,
      });
    }
    return items;
  }
}
