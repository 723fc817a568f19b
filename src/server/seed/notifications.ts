/**
 * The demo accounts' notifications (admin, olivia, carlos, uma): what the notifications feature would
 * have written for the seed's own likes, comments, reviews, owner replies and follows of their things,
 * so a fresh start shows a bell with real items, each pointing at a row that exists. Collected while
 * those rows are generated (points.ts, posts.ts, users.ts), written once at the end, in the seed's
 * transaction. Deterministic: kept in generation order, then sorted by time and key.
 */
import type { NotificationAction } from '../features/social/events';
import { groupKeyOf } from '../features/notifications/queries';
import type { NotificationRow } from './tables';

const HOUR = 3_600_000;

/**
 * The newest acts of each kind kept per person: a bell's list shows 20 groups a page, and a demo
 * inbox of a few dozen reads like a busy week rather than a backlog of years.
 */
const KEEP: Readonly<Record<NotificationAction, number>> = {
  like: 24,
  comment: 10,
  review: 10,
  review_reply: 6,
  follow: 12,
};
/**
 * The person's newest few are unread (what came since their last visit), the rest read: every demo
 * account opens to a bell with a small count, as on a normal day.
 */
const UNREAD_NEWEST = 5;
/** The read ones were seen a while after they came. */
const READ_AFTER_MS = 5 * HOUR;

interface Act {
  recipientId: string;
  actorId: string;
  action: NotificationAction;
  objectType: 'P' | 'X' | 'R' | 'C' | 'U';
  objectId: string;
  at: number;
}

export class DemoInbox {
  private readonly acts: Act[] = [];
  private readonly demoIds: ReadonlySet<string>;

  /** `demoIds`: the demo accounts' user ids (the only people whose inbox is filled). */
  constructor(demoIds: readonly string[]) {
    this.demoIds = new Set(demoIds);
  }

  /** Whether `userId` is a demo account, whose things' likes, comments and reviews are worth keeping. */
  isDemo(userId: string | null | undefined): boolean {
    return !!userId && this.demoIds.has(userId);
  }

  /** An act on something of `recipientId`'s; kept only for demo accounts and never about oneself. */
  add(act: Act): void {
    if (!this.isDemo(act.recipientId) || act.actorId === act.recipientId || !act.actorId) return;
    this.acts.push(act);
  }

  /** The notifications rows: one per act (the table's key), the newest per kind, read or not. */
  rows(now: number): NotificationRow[] {
    const byKey = new Map<string, Act>();
    for (const act of this.acts) {
      if (act.at >= now) continue;
      // the table's key: a second comment of one person on one post is the same row, at its newest
      const key = `${act.recipientId}|${act.action}|${act.objectType}|${act.objectId}|${act.actorId}`;
      const seen = byKey.get(key);
      if (!seen || seen.at < act.at) byKey.set(key, act);
    }
    const newestFirst = [...byKey.entries()].sort(([ka, a], [kb, b]) => b.at - a.at || (ka < kb ? -1 : 1));
    const kept = new Map<string, number>();
    const perPerson = new Map<string, number>();
    const rows: NotificationRow[] = [];
    for (const [, act] of newestFirst) {
      const kind = `${act.recipientId}|${act.action}`;
      const count = kept.get(kind) ?? 0;
      if (count >= KEEP[act.action]) continue;
      kept.set(kind, count + 1);
      const rank = perPerson.get(act.recipientId) ?? 0;
      perPerson.set(act.recipientId, rank + 1);
      const unread = rank < UNREAD_NEWEST;
      rows.push({
        recipient_id: act.recipientId,
        actor_id: act.actorId,
        action: act.action,
        object_type: act.objectType,
        object_id: act.objectId,
        group_key: groupKeyOf(act),
        created_at: act.at,
        read_at: unread ? null : Math.min(now, act.at + READ_AFTER_MS),
      });
    }
    // oldest first, so the ids (the list's newest-in-group and "read up to") rise with time
    return rows.reverse();
  }
}
