import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { chatInboxPageSchema, type ChatInboxItem } from '../../../shared/api/chat';
import { userTopic } from '../../../shared/api/social-live';
import { apiGet } from '../../lib/api';
import { errorText } from '../../lib/query';
import { useSocialTopic } from '../../live/socialTopic';
import { useShell } from '../../shell/context';
import { PanelLoader, SidePanel } from '../../shell/SidePanel';
import { Avatar } from '../accounts/Avatar';
import { useSession } from '../accounts/session';
import { CHAT_INBOX_PATH } from './chatPaths';
import './chat.css';

/** The bookings engineer's tab (issue 22): it loads when opened. */
const InboxBookings = lazy(() => import('../bookings/InboxBookings'));

/**
 * /inbox and /inbox/bookings (issue 22): the signed-in person's conversations, as a visitor of points
 * and as the owner or consultant of points, newest first with their unread counts (live: a new line
 * anywhere moves its conversation to the top), and the Bookings tab.
 */
export function InboxPanel({ tab }: { tab?: 'bookings' | undefined }) {
  const { navigation } = useShell();
  const session = useSession();
  const back = navigation.canGoBack ? navigation.back : undefined;
  return (
    <SidePanel title="Inbox" className="chat-inbox-panel" onClose={navigation.toMap} onBack={back}>
      <nav className="chat-inbox__tabs" aria-label="Inbox">
        <Link to="/inbox" className="chat-inbox__tab" aria-current={tab === undefined ? 'page' : undefined}>
          Messages
        </Link>
        <Link
          to="/inbox/bookings"
          className="chat-inbox__tab"
          aria-current={tab === 'bookings' ? 'page' : undefined}
        >
          Bookings
        </Link>
      </nav>
      {session.loading ? (
        <PanelLoader label="Loading your inbox…" />
      ) : !session.user ? (
        <div className="chat-panel__signin">
          <p>You need to sign in to see your inbox.</p>
          <button type="button" className="xp-button xp-button--primary" onClick={() => session.openLogin()}>
            Sign in
          </button>
        </div>
      ) : tab === 'bookings' ? (
        <Suspense fallback={<PanelLoader label="Loading your bookings…" />}>
          <InboxBookings />
        </Suspense>
      ) : (
        <Conversations userId={session.user.id} />
      )}
    </SidePanel>
  );
}

function Conversations({ userId }: { userId: string }) {
  const inbox = useInfiniteQuery({
    queryKey: [CHAT_INBOX_PATH, userId],
    queryFn: ({ pageParam, signal }) =>
      apiGet(
        pageParam ? `${CHAT_INBOX_PATH}?before=${encodeURIComponent(pageParam)}` : CHAT_INBOX_PATH,
        chatInboxPageSchema,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.next ?? undefined,
  });
  useSocialTopic(userTopic(userId), (message) => {
    if (message.kind === 'chat') void inbox.refetch();
  });
  if (inbox.isPending) return <PanelLoader label="Loading your inbox…" />;
  if (inbox.isError) return <p role="alert">{errorText(inbox.error)}</p>;
  const items = inbox.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return <p className="chat-inbox__empty">No conversations yet: open a place and press Chat.</p>;
  return (
    <>
      <ul className="chat-inbox" aria-label="Conversations">
        {items.map((item) => (
          <InboxRow key={item.url} item={item} />
        ))}
      </ul>
      {inbox.hasNextPage && (
        <button
          type="button"
          className="xp-button chat__older"
          disabled={inbox.isFetchingNextPage}
          onClick={() => void inbox.fetchNextPage()}
        >
          Show older conversations
        </button>
      )}
    </>
  );
}

function InboxRow({ item }: { item: ChatInboxItem }) {
  const who =
    item.role === 'visitor' ? item.point.title : `${item.visitor.fullname || item.visitor.username}`;
  return (
    <li className={`chat-inbox__item${item.unread > 0 ? ' chat-inbox__item--unread' : ''}`}>
      <Link to={item.url} className="chat-inbox__link">
        {item.role === 'point' ? (
          <Avatar
            fullname={item.visitor.fullname}
            username={item.visitor.username}
            src={item.visitor.avatar_url}
            size={36}
          />
        ) : (
          <span className="chat-inbox__place" aria-hidden="true">
            {item.point.title.slice(0, 1).toUpperCase()}
          </span>
        )}
        <span className="chat-inbox__body">
          <span className="chat-inbox__who">
            {who}
            {item.role === 'point' && <span className="chat-inbox__about"> · {item.point.title}</span>}
          </span>
          <span className="chat-inbox__last">
            {item.last.side === item.role ? 'You: ' : ''}
            {item.last.text}
          </span>
        </span>
        <span className="chat-inbox__side">
          <time dateTime={new Date(item.last.at).toISOString()}>
            {new Date(item.last.at).toLocaleDateString([], { month: 'short', day: 'numeric' })}
          </time>
          {item.unread > 0 && (
            <span className="xp-count" aria-label={`${item.unread} unread`}>
              {item.unread}
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}
