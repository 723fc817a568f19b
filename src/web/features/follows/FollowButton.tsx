import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LOGIN_REASONS, useSession } from '../accounts/session';
import { refreshFollowAnswers, setFollow } from './followApi';
import './follows.css';

/**
 * Follow / Unfollow a person: shown at once, put back with the server's message if it refuses;
 * `onCount` hears their new follower count. A visitor gets the login modal; one's own is not shown.
 */
export function FollowButton({
  userId,
  fullname,
  isfollowed,
  onCount,
}: {
  userId: string;
  fullname: string;
  isfollowed: 0 | 1;
  onCount?(followers: number | null, followed: boolean): void;
}) {
  const { user, requireAccount } = useSession();
  const client = useQueryClient();
  // what the person chose, until the server's answer (the prop) changes: then the prop wins
  const [chosen, setChosen] = useState<{ over: 0 | 1; value: boolean } | null>(null);
  const followed = chosen && chosen.over === isfollowed ? chosen.value : isfollowed === 1;
  const setFollowed = (value: boolean) => setChosen({ over: isfollowed, value });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (user?.id === userId) return null;

  const toggle = async () => {
    if (!requireAccount(LOGIN_REASONS.follow)) return;
    const next = !followed;
    setFollowed(next);
    setError(null);
    setBusy(true);
    onCount?.(null, next);
    try {
      const followers = await setFollow(userId, next);
      onCount?.(followers, next);
      void refreshFollowAnswers(client);
    } catch (failure) {
      setFollowed(!next);
      onCount?.(null, !next);
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="follow-button">
      <button
        type="button"
        className={followed ? 'xp-button follow-button__on' : 'xp-button xp-button--primary'}
        aria-pressed={followed}
        aria-label={`${followed ? 'Unfollow' : 'Follow'} ${fullname}`}
        disabled={busy}
        onClick={() => void toggle()}
      >
        {followed ? 'Following' : 'Follow'}
      </button>
      {error !== null && (
        <span className="follow-button__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
