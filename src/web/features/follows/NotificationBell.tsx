import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { NotificationItem } from '../../../shared/api/notifications';
import { NOTIFICATION_WITHDRAWN_KIND } from '../../../shared/api/wire';
import { answerSchemas, lazySchema } from '../../lib/schemas';
import { userTopic } from '../../../shared/api/social-live';
import { apiPost } from '../../lib/api';
import { apiQuery } from '../../lib/query';
import { useSocialTopicLater } from '../../live/lazySocialTopic';
import { Dialog } from '../../ui/Dialog';
import { HeaderIconContent } from '../../ui/HeaderIcon';
import { Avatar } from '../accounts/Avatar';
import { useSession } from '../accounts/session';
import './follows.css';

const BELL_ICON =
  'M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z';

const UNREAD_PATH = '/v1/notifications/unread';
const LIST_PATH = '/v1/notifications';

/**
 * The header's bell for a signed-in person (issue 18): the unread count, live from `user:{id}`
 * (a new notification or a read in another tab changes it without a reload), opening the list of
 * grouped notifications, each leading to its object; opening it marks what it shows read.
 */
export function NotificationBell() {
  const { user } = useSession();
  if (!user) return null;
  return <Bell userId={user.id} />;
}

function Bell({ userId }: { userId: string }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const unread = useQuery(apiQuery(UNREAD_PATH, lazySchema('unreadSchema'), userId));
  const count = unread.data?.unread ?? 0;

  useSocialTopicLater(userTopic(userId), (message) => {
    // read in the order they came: one promise, its callbacks in turn
    void answerSchemas().then((schemas) => {
      const parsed =
        message.kind === 'notification'
          ? schemas.notificationPushSchema.safeParse(message.data)
          : message.kind === 'notifications_read'
            ? schemas.notificationsReadPushSchema.safeParse(message.data)
            : message.kind === NOTIFICATION_WITHDRAWN_KIND
              ? schemas.notificationWithdrawnPushSchema.safeParse(message.data)
              : null;
      if (!parsed?.success) return;
      client.setQueryData([UNREAD_PATH, userId], { unread: parsed.data.unread });
      // a new one joins the list; one taken back (an unfollow) leaves it
      if (message.kind !== 'notifications_read')
        void client.invalidateQueries({ queryKey: [LIST_PATH, userId] });
    });
  });

  return (
    <>
      <button
        type="button"
        className="xp-header-icon"
        aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
        onClick={() => setOpen(true)}
      >
        <HeaderIconContent path={BELL_ICON} count={count} testId="unread-count" />
      </button>
      {open && <NotificationList userId={userId} onClose={() => setOpen(false)} />}
    </>
  );
}

function NotificationList({ userId, onClose }: { userId: string; onClose(): void }) {
  const client = useQueryClient();
  const titleId = useId();
  const list = useQuery(apiQuery(LIST_PATH, lazySchema('notificationPageSchema'), userId));
  const [more, setMore] = useState<NotificationItem[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const markRead = useMutation({
    mutationFn: (upto: number) => apiPost('/v1/notifications/read', lazySchema('unreadSchema'), { upto }),
    onSuccess: (answer) => client.setQueryData([UNREAD_PATH, userId], answer),
  });
  const items = [...(list.data?.items ?? []), ...more];
  const cursor = next === undefined ? list.data?.next : next;
  // what the list shows is read once it has been shown
  const markedUpTo = useRef(0);
  const { mutate } = markRead;
  useEffect(() => {
    const data = list.data;
    if (!data || data.unread === 0 || data.items.length === 0) return;
    const upto = Math.max(...data.items.map((item) => item.id));
    if (upto <= markedUpTo.current) return;
    markedUpTo.current = upto;
    mutate(upto);
  }, [list.data, mutate]);
  const loadMore = async () => {
    if (!cursor) return;
    const page = await client.fetchQuery(
      apiQuery(
        `${LIST_PATH}?before=${encodeURIComponent(cursor)}`,
        lazySchema('notificationPageSchema'),
        userId,
      ),
    );
    setMore((was) => [...was, ...page.items]);
    setNext(page.next);
  };

  return (
    <Dialog className="notification-list" labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId}>Notifications</h2>
      {list.isPending ? (
        <p role="status">Loading…</p>
      ) : list.isError ? (
        <p role="alert">{list.error.message}</p>
      ) : items.length === 0 ? (
        <p className="notification-list__empty">
          Nothing yet: likes, comments, reviews and follows show here.
        </p>
      ) : (
        <ul className="notification-list__items">
          {items.map((item) => (
            <li key={item.group} className={item.unread ? 'notification-list__item--unread' : undefined}>
              <Link to={item.url} onClick={onClose} className="notification-list__link">
                <span className="notification-list__avatars" aria-hidden="true">
                  {item.actors.map((actor) => (
                    <Avatar
                      key={actor.id}
                      fullname={actor.fullname}
                      username={actor.username}
                      src={actor.avatar_url}
                      size={28}
                    />
                  ))}
                </span>
                <span className="notification-list__text">{item.text}</span>
                <time className="notification-list__time" dateTime={new Date(item.created_at).toISOString()}>
                  {new Date(item.created_at).toLocaleString()}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" className="xp-button" onClick={() => void loadMore()}>
          Show older
        </button>
      )}
      <button type="button" className="xp-button notification-list__close" onClick={onClose}>
        Close
      </button>
    </Dialog>
  );
}
