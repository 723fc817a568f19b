import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CHAT_UNREAD_KIND } from '../../../shared/api/wire';
import { userTopic } from '../../../shared/api/social-live';
import { apiQuery } from '../../lib/query';
import { answerSchemas, lazySchema } from '../../lib/schemas';
import { useSocialTopicLater } from '../../live/lazySocialTopic';
import { useSession } from '../accounts/session';
import { CHAT_INBOX_PATH, CHAT_UNREAD_PATH } from './chatPaths';
import { HeaderIconContent } from '../../ui/HeaderIcon';
import './chat.css';

const INBOX_ICON =
  'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2Zm2 4v2h12V8H6Zm0 4v2h8v-2H6Z';

/**
 * The header's inbox link for a signed-in person (issue 22) with the number of conversations that
 * have unread lines, live from `user:{id}`: a line written to them shows here without a reload.
 */
export function ChatBadge() {
  const { user } = useSession();
  if (!user) return null;
  return <Badge userId={user.id} />;
}

function Badge({ userId }: { userId: string }) {
  const client = useQueryClient();
  const unread = useQuery(apiQuery(CHAT_UNREAD_PATH, lazySchema('chatUnreadSchema')));
  const count = unread.data?.unread ?? 0;
  useSocialTopicLater(userTopic(userId), (message) => {
    if (message.kind !== CHAT_UNREAD_KIND) return;
    void answerSchemas().then(({ chatUnreadSchema }) => {
      const parsed = chatUnreadSchema.safeParse(message.data);
      if (!parsed.success) return;
      client.setQueryData([CHAT_UNREAD_PATH], { unread: parsed.data.unread });
      void client.invalidateQueries({ queryKey: [CHAT_INBOX_PATH] });
    });
  });
  return (
    <Link
      to="/inbox"
      className="xp-header-icon"
      aria-label={count > 0 ? `Inbox, ${count} unread conversations` : 'Inbox'}
    >
      <HeaderIconContent path={INBOX_ICON} count={count} testId="chat-unread" />
    </Link>
  );
}
