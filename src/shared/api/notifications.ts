import { z } from 'zod';
import { SOCIAL_OBJECT_TYPES } from './social-live';

/**
 * Contracts of in-app notifications (issue 18): someone liked, commented on or reviewed something of
 * yours, answered your review, or followed you. The list folds them the way Mastodon does: likes of
 * one object on one day, and follows on one day, are one item ("Ana and 3 others liked your post");
 * a comment or a review is one item per person and object.
 *
 *   GET  /v1/notifications?before=&limit=   the signed-in person's items, newest first (keyset pages)
 *   GET  /v1/notifications/unread           {unread}: how many notifications are not read yet
 *   POST /v1/notifications/read {upto?}     marks read every notification (or those with id <= upto)
 *
 * Live: each new notification is pushed on `user:{id}` as the `social` event
 * {kind: 'notification', data: {unread, item}}; marking read pushes {kind: 'notifications_read', data: {unread}}.
 */

export const NOTIFICATION_ACTIONS = ['like', 'comment', 'review', 'review_reply', 'follow'] as const;
export type NotificationActionName = (typeof NOTIFICATION_ACTIONS)[number];
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_MAX_PAGE_SIZE = 50;
/** How many of a group's people an item names (the rest are "and N others"). */
export const NOTIFICATION_SHOWN_ACTORS = 3;

export const notificationActorSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  avatar_url: z.string().nullable(),
});
export type NotificationActor = z.infer<typeof notificationActorSchema>;

export const notificationItemSchema = z.object({
  /** the newest notification of the group: `upto` for marking read. */
  id: z.number().int(),
  group: z.string(),
  action: z.enum(NOTIFICATION_ACTIONS),
  object_type: z.enum(SOCIAL_OBJECT_TYPES),
  object_id: z.string(),
  /** where the item leads: /post/{id}, /x/{id}, /u/{username}. */
  url: z.string(),
  /** the newest people first, at most NOTIFICATION_SHOWN_ACTORS. */
  actors: z.array(notificationActorSchema),
  /** how many people the group holds. */
  actor_count: z.number().int(),
  /** "Ana and 3 others liked your post." */
  text: z.string(),
  created_at: z.number().int(),
  unread: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItemSchema>;

export const notificationListQuerySchema = z.object({
  before: z
    .string()
    .max(400)
    .optional()
    .meta({ description: 'the `next` of the previous page; absent for the first' }),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_MAX_PAGE_SIZE).optional(),
});

export const notificationPageSchema = z.object({
  items: z.array(notificationItemSchema),
  unread: z.number().int(),
  /** the cursor of the next page, or null at the end. */
  next: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const unreadSchema = z.object({ unread: z.number().int() });

export const markReadRequestSchema = z.object({
  upto: z.number().int().min(1).optional().meta({ description: 'mark only notifications up to this id' }),
});

/** The `data` of a live {kind: 'notification'} push on `user:{id}`. */
export const notificationPushSchema = z.object({ unread: z.number().int(), item: notificationItemSchema });
/** The `data` of a live {kind: 'notifications_read'} push. */
export const notificationsReadPushSchema = unreadSchema;
export { NOTIFICATION_WITHDRAWN_KIND } from './wire';
/** Its `data`: the unread count after it, and the group the notification was in. */
export const notificationWithdrawnPushSchema = z.object({ unread: z.number().int(), group: z.string() });

const OBJECT_WORDS: Record<string, string> = {
  P: 'your post',
  X: 'your point',
  R: 'your review',
  C: 'your comment',
  U: 'you',
};

/** "Ana liked your post.", "Ana and Ben liked your post.", "Ana and 3 others followed you." */
export function notificationText(
  action: NotificationActionName,
  objectType: string,
  names: string[],
  count: number,
): string {
  const first = names[0] ?? 'Someone';
  const who =
    count <= 1
      ? first
      : count === 2 && names[1]
        ? `${first} and ${names[1]}`
        : `${first} and ${count - 1} others`;
  const object = OBJECT_WORDS[objectType] ?? 'your post';
  switch (action) {
    case 'like':
      return `${who} liked ${object}.`;
    case 'comment':
      return `${who} commented on ${object}.`;
    case 'review':
      return `${who} reviewed ${object}.`;
    case 'review_reply':
      return `${who} answered ${object}.`;
    case 'follow':
      return `${who} followed you.`;
  }
}
