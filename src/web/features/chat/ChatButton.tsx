import { useContext } from 'react';
import { useNavigate } from 'react-router';
import { buildAddress } from '../../../shared/address';
import { SessionContext, type Session } from '../accounts/session';

/** The reason the login modal shows when a visitor who is not signed in presses Chat. */
export const CHAT_LOGIN_REASON = 'You need to login to chat.';

interface ChatButtonProps {
  pointId: string;
  /** the usernames of the point's owner and consultant. */
  controllers: ReadonlyArray<string | null | undefined>;
}

/**
 * "Chat" in a point's panel (issue 22): opens the conversation with the point; a visitor not signed
 * in gets the login modal first. Not shown to the point's own owner or consultant (they answer from
 * the inbox). Outside a session (rendered on the server) it is a link to the conversation, which asks
 * to sign in itself; the full-screen page writes that link itself (PointActions' `chat`), so its first
 * script carries neither the router nor the session.
 */
export function ChatButton({ pointId, controllers }: ChatButtonProps) {
  const session = useContext(SessionContext);
  const to = buildAddress({ screen: 'chat', pointId });
  if (!session)
    return (
      <a className="xp-button" href={to}>
        Chat
      </a>
    );
  const me = session.user?.username;
  if (me !== undefined && controllers.includes(me)) return null;
  return <InAppChatButton to={to} session={session} />;
}

function InAppChatButton({ to, session }: { to: string; session: Session }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="xp-button"
      onClick={() => {
        if (session.requireAccount(CHAT_LOGIN_REASON, () => void navigate(to))) void navigate(to);
      }}
    >
      Chat
    </button>
  );
}
