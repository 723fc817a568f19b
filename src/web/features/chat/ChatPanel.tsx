import Linkify from 'linkify-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CHAT_TEXT_MAX } from '../../../shared/api/chat';
import { useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { useSession } from '../accounts/session';
import type { ShownLine } from './conversationState';
import { useConversation } from './useConversation';
import './chat.css';

/** Links in a line: clickable, opened apart, never vouched for; only web links (as posts and comments). */
const LINK_OPTIONS = {
  target: '_blank',
  rel: 'nofollow ugc noopener',
  validate: { url: (value: string) => /^(https?:\/\/|www\.)/i.test(value), email: false },
} as const;

/**
 * /chat/{pointid} and /chat/{pointid}/{visitorid} (issue 22): a conversation with a point in the side
 * panel. A visitor who is not signed in is asked to sign in (the login modal).
 */
export function ChatPanel({ pointId, visitorId }: { pointId: string; visitorId?: string | undefined }) {
  const { navigation } = useShell();
  const session = useSession();
  const back = navigation.canGoBack ? navigation.back : undefined;
  if (session.loading)
    return (
      <SidePanel title="Chat" className="chat-panel" onClose={navigation.toMap} onBack={back}>
        <PanelLoader label="Loading the conversation…" />
      </SidePanel>
    );
  if (!session.user)
    return (
      <SidePanel title="Chat" className="chat-panel" onClose={navigation.toMap} onBack={back}>
        <div className="chat-panel__signin">
          <p>You need to sign in to chat.</p>
          <button type="button" className="xp-button xp-button--primary" onClick={() => session.openLogin()}>
            Sign in
          </button>
        </div>
      </SidePanel>
    );
  return (
    <Conversation
      key={`${pointId}/${visitorId ?? ''}`}
      pointId={pointId}
      visitorId={visitorId}
      me={session.user}
    />
  );
}

function Conversation({
  pointId,
  visitorId,
  me,
}: {
  pointId: string;
  visitorId?: string | undefined;
  me: { username: string };
}) {
  const { navigation } = useShell();
  const back = navigation.canGoBack ? navigation.back : undefined;
  const view = useConversation(pointId, visitorId, me);
  const { conversation } = view;
  const title = !conversation
    ? 'Chat'
    : conversation.role === 'visitor'
      ? conversation.point.title
      : conversation.visitor.fullname || conversation.visitor.username;
  const listRef = useRef<HTMLOListElement>(null);
  const count = view.lines.length;
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count]);

  return (
    <SidePanel title={title} className="chat-panel" onClose={navigation.toMap} onBack={back}>
      {view.error ? (
        <ErrorPanel message={view.error} />
      ) : !conversation ? (
        <PanelLoader label="Loading the conversation…" />
      ) : (
        <div className="chat">
          <p className="chat__about">
            {conversation.role === 'visitor' ? (
              <>
                Your conversation with{' '}
                <Link to={`/x/${conversation.point.id}`}>{conversation.point.title}</Link>
              </>
            ) : (
              <>
                @{conversation.visitor.username} about{' '}
                <Link to={`/x/${conversation.point.id}`}>{conversation.point.title}</Link>
              </>
            )}
            {!view.live && <span className="chat__offline"> · reconnecting…</span>}
          </p>
          {view.older && (
            <button
              type="button"
              className="xp-button chat__older"
              disabled={view.older.loading}
              onClick={() => void view.older?.load()}
            >
              {view.older.loading ? 'Loading…' : 'Show older messages'}
            </button>
          )}
          <ol className="chat__lines" ref={listRef} aria-label="Messages" aria-live="polite">
            {view.lines.length === 0 && <li className="chat__empty">No messages yet. Say hello!</li>}
            {view.lines.map((line) => (
              <Line
                key={line.key}
                line={line}
                mine={line.side === conversation.role}
                seen={
                  line.side === conversation.role &&
                  line.id !== null &&
                  conversation.read[conversation.role === 'visitor' ? 'point' : 'visitor'] >= line.id
                }
              />
            ))}
          </ol>
          <Composer onSend={view.send} />
        </div>
      )}
    </SidePanel>
  );
}

function Line({ line, mine, seen }: { line: ShownLine; mine: boolean; seen: boolean }) {
  const time = new Date(line.at);
  return (
    <li
      className={`chat__line chat__line--${mine ? 'mine' : 'theirs'} chat__line--${line.state}`}
      data-state={line.state}
    >
      {!mine && <span className="chat__from">{line.from}</span>}
      <p className="chat__text">
        <Linkify options={LINK_OPTIONS}>{line.text}</Linkify>
      </p>
      <span className="chat__meta">
        <time dateTime={time.toISOString()}>
          {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </time>
        {mine && line.state === 'pending' && ' · Sending…'}
        {mine && line.state === 'stored' && (seen ? ' · Seen' : ' · Sent')}
        {line.state === 'failed' && <span role="alert"> · Not sent: {line.error}</span>}
      </span>
    </li>
  );
}

function Composer({ onSend }: { onSend(text: string): void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setProblem('Write something first.');
      return;
    }
    if (text.length > CHAT_TEXT_MAX) {
      setProblem(`At most ${CHAT_TEXT_MAX} characters; this has ${text.length}.`);
      return;
    }
    setProblem(null);
    onSend(text);
    setText('');
  };
  return (
    <form className="chat__composer" onSubmit={submit}>
      <label className="chat__label" htmlFor="chat-text">
        Message
      </label>
      <textarea
        id="chat-text"
        className="chat__input"
        value={text}
        rows={2}
        placeholder="Write a message"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) submit(event);
        }}
      />
      <button type="submit" className="xp-button xp-button--primary">
        Send
      </button>
      {problem && (
        <p className="chat__problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
