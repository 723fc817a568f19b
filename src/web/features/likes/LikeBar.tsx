import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import {
  LIKE_DOWN,
  LIKE_UP,
  type LikeObjectType,
  type LikeRemoveResult,
  type LikeResult,
  type LikeType,
  type Liker,
} from '../../../shared/api/likes';
import { optimisticUpdate, type CacheChange } from '../../lib/optimistic';
import { errorText } from '../../lib/query';
import { LOGIN_REASONS, useSession } from '../accounts/session';
import { LikersDialog } from './LikersDialog';
import { useOnScreen } from '../../lib/onScreen';
import { LIKE_BAR_MARGIN, useLiveLikeCounts } from './liveCounts';
import { actionFor, applyAction, likeFailureText, type LikeAction, type LikeState } from './likeState';
import { sendLike } from './likesApi';
import './likes.css';

export interface LikeBarProps {
  objectType: LikeObjectType;
  objectId: string;
  /** the counts and the viewer's own like, as the cached answer holds them */
  state: LikeState;
  /** the cached answers that hold this state, and how to put another state in each */
  changes(next: LikeState): CacheChange[];
  /** after a like is settled (the server answered): answers elsewhere that show the counts */
  onSettled?(): void;
  /** what a liker's row shows after the name: the follows feature's follow button */
  renderFollow?(liker: Liker): ReactNode;
  /** what is liked, for the buttons' names where several bars share a screen ("this comment") */
  subject?: string;
  /** the small bar of a comment */
  compact?: boolean;
  /**
   * hear other people's likes of the object (`social:{type}:{id}`) while the bar is on screen, and
   * put their counts in the cached answers through `changes`
   */
  live?: boolean;
}

type Notice = { kind: 'login' } | { kind: 'error'; text: string } | null;

/**
 * 👍 and 👎 with their counts (social §4): a press adds a like, the same button again removes it,
 * the other one changes it. The change shows at once (lib/optimistic.ts) and is rolled back if the
 * server refuses, with the spec's 'Sorry, Server returned Error ! : {detail}'; a visitor is told to
 * log in, with a link that opens the login modal. A count opens the people behind it.
 */
export function LikeBar({
  objectType,
  objectId,
  state,
  changes,
  onSettled,
  renderFollow,
  subject,
  compact = false,
  live = false,
}: LikeBarProps) {
  const client = useQueryClient();
  const { signedIn, requireAccount } = useSession();
  const [notice, setNotice] = useState<Notice>(null);
  const [likersOf, setLikersOf] = useState<LikeType | null>(null);
  const optimistic = optimisticUpdate<LikeAction>(client, (action) => changes(applyAction(state, action)));
  const mutation = useMutation({
    mutationFn: (action: LikeAction) => sendLike(objectType, objectId, action),
    onMutate: optimistic.onMutate,
    onSuccess: (result: LikeResult | LikeRemoveResult) => {
      // the server's counts and like id (its replid becomes the likeid) replace the guess
      const mine = 'liketype' in result ? { likeid: result.likeid, liketype: result.liketype } : null;
      for (const { queryKey, update } of changes({ up: result.up, down: result.down, mine }))
        client.setQueriesData({ queryKey }, (current: unknown) =>
          current === undefined ? undefined : update(current),
        );
    },
    onError: (error, action, context) => {
      optimistic.onError(error, action, context);
      setNotice({ kind: 'error', text: likeFailureText(errorText(error)) });
    },
    onSettled: async (data, error, action, context) => {
      await optimistic.onSettled(data, error, action, context);
      onSettled?.();
    },
  });

  const [observed, onScreen] = useOnScreen<HTMLDivElement>(live, { margin: LIKE_BAR_MARGIN });
  useLiveLikeCounts(objectType, objectId, live && onScreen, (counts) => {
    // the viewer's own like stays as this page knows it: the push carries only the counts
    for (const { queryKey, update } of changes({ ...counts, mine: state.mine }))
      client.setQueriesData({ queryKey }, (current: unknown) =>
        current === undefined ? undefined : update(current),
      );
  });

  const press = (type: LikeType) => {
    setNotice(null);
    if (!signedIn) {
      setNotice({ kind: 'login' });
      return;
    }
    // one press at a time: the next one acts on the like the server has named
    if (mutation.isPending) return;
    mutation.mutate(actionFor(state.mine, type));
  };

  const kinds = [
    { type: LIKE_UP, verb: 'Like', count: state.up, noun: ['like', 'likes'] },
    { type: LIKE_DOWN, verb: 'Dislike', count: state.down, noun: ['dislike', 'dislikes'] },
  ] as const;

  return (
    <div ref={observed} className={compact ? 'likes-bar likes-bar--compact' : 'likes-bar'}>
      <div className="likes-bar__buttons" role="group" aria-label={subject ? `Likes of ${subject}` : 'Likes'}>
        {kinds.map(({ type, verb, count, noun }) => (
          <span key={type} className="likes-bar__pair">
            <button
              type="button"
              className="likes-bar__toggle"
              aria-pressed={state.mine?.liketype === type}
              aria-label={subject ? `${verb} ${subject}` : verb}
              aria-busy={mutation.isPending || undefined}
              onClick={() => press(type)}
            >
              <Thumb down={type === LIKE_DOWN} />
            </button>
            <button
              type="button"
              className="likes-bar__count"
              aria-label={`${count} ${noun[count === 1 ? 0 : 1]}: see who`}
              onClick={() => setLikersOf(type)}
            >
              {count}
            </button>
          </span>
        ))}
      </div>
      {notice?.kind === 'login' && (
        <p className="likes-bar__notice" role="alert">
          {LOGIN_REASONS.like}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setNotice(null);
              requireAccount(LOGIN_REASONS.like);
            }}
          >
            Log in
          </button>
        </p>
      )}
      {notice?.kind === 'error' && (
        <p className="likes-bar__notice likes-bar__notice--error" role="alert">
          {notice.text}
        </p>
      )}
      {likersOf !== null && (
        <LikersDialog
          objectType={objectType}
          objectId={objectId}
          likeType={likersOf}
          onClose={() => setLikersOf(null)}
          {...(renderFollow ? { renderFollow } : {})}
        />
      )}
    </div>
  );
}

/** A card's counts (no buttons: the card is a link to the post); read out as words. */
export function LikeCounts({ up, down }: { up: number; down: number }) {
  return (
    <span className="likes-counts">
      <span className="visually-hidden">
        {`${up} ${up === 1 ? 'like' : 'likes'}, ${down} ${down === 1 ? 'dislike' : 'dislikes'}`}
      </span>
      <span aria-hidden="true">
        <Thumb size={14} /> {up} · <Thumb size={14} down /> {down}
      </span>
    </span>
  );
}

/**
 * A thumb, up or down, drawn here rather than as the 👍 and 👎 emoji: those need an emoji font,
 * which many systems (Linux without one installed) lack, and they then show as empty boxes.
 */
function Thumb({ down = false, size = 18 }: { down?: boolean; size?: number }) {
  return (
    <svg
      className="likes-thumb"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      <g transform={down ? 'rotate(180 12 12)' : undefined} fill="currentColor">
        <rect x="2" y="10" width="4" height="11" rx="1" />
        <path d="M8 21h9.4a2 2 0 0 0 2-1.6l1.5-7.2A1.9 1.9 0 0 0 19 10h-5.4l.8-3.9a1.9 1.9 0 0 0-3.3-1.6L8 9.4z" />
      </g>
    </svg>
  );
}
