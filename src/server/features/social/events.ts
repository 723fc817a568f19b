import type { SocialLiveMessage, SocialObjectType } from '../../../shared/api/social-live';

/** What a person is told about (in-app notifications, grouped per kind and object). */
export type NotificationAction = 'like' | 'comment' | 'review' | 'review_reply' | 'follow';

/**
 * The social features' domain events (issue 18). Services emit them after their write has
 * committed; listeners (the live layer: pages and people over the socket, through Redis when
 * several processes run; the notifications) subscribe in `buildApp`. A listener that throws is
 * logged and never fails the write that emitted.
 */
export type SocialEvent =
  /** to every page showing the object (topic `social:{type}:{id}`). */
  | { kind: 'object'; objectType: SocialObjectType; objectId: string; message: SocialLiveMessage }
  /** to one person: something they own was liked, commented, reviewed, or they were followed. */
  | {
      kind: 'notify';
      recipientId: string;
      actorId: string;
      action: NotificationAction;
      /** the object acted on (the post, the point, the review…) and, for a follow, the follower. */
      objectType: SocialObjectType;
      objectId: string;
      at: number;
    }
  /** to one person's open pages (topic `user:{id}`): their notifications and unread count. */
  | { kind: 'user'; userId: string; message: SocialLiveMessage }
  /** an act undone (an unfollow): its notification is taken back, as if it had never been sent. */
  | {
      kind: 'withdraw';
      recipientId: string;
      actorId: string;
      action: NotificationAction;
      objectType: SocialObjectType;
      objectId: string;
    };

export type SocialListener = (event: SocialEvent) => void | Promise<void>;

export class SocialEvents {
  private readonly listeners: SocialListener[] = [];

  constructor(private readonly onListenerError: (error: unknown, event: SocialEvent) => void) {}

  on(listener: SocialListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  emit(event: SocialEvent): void {
    for (const listener of this.listeners) {
      try {
        const done = listener(event);
        if (done) done.catch((error: unknown) => this.onListenerError(error, event));
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }

  /** Pushes to every page showing an object (`social:{type}:{id}`), on every process. */
  object(objectType: SocialObjectType, objectId: string, message: SocialLiveMessage): void {
    this.emit({ kind: 'object', objectType, objectId, message });
  }

  /** Pushes to one person's open pages (`user:{id}`), on every process. */
  user(userId: string, message: SocialLiveMessage): void {
    this.emit({ kind: 'user', userId, message });
  }

  /** Takes back the notification of an act undone (the follow of an unfollow). */
  withdraw(event: Omit<Extract<SocialEvent, { kind: 'withdraw' }>, 'kind'>): void {
    if (event.recipientId === event.actorId) return;
    this.emit({ kind: 'withdraw', ...event });
  }

  /** The people a notification would wake: nobody is told about their own act. */
  notify(event: Omit<Extract<SocialEvent, { kind: 'notify' }>, 'kind' | 'at'>): void {
    if (event.recipientId === event.actorId) return;
    this.emit({ kind: 'notify', at: Date.now(), ...event });
  }
}
