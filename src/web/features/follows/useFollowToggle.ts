import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FOLLOW_MISSING_USER_ID } from '../../../shared/api/follows';
import { LOGIN_REASONS, useSession } from '../accounts/session';
import { refreshFollowAnswers, setFollow } from './followApi';

/**
 * Following a feed item's author from its menu (social §2): isfollowed 0→1 or 1→0, shown at once and
 * put back if the server refuses (other follow errors are only logged, §8); a visitor gets the login
 * modal, an item without an owner id §8's alert. The posts' card menu and the feed-item menu share it.
 */
export function useFollowToggle(owner: string | null, isfollowed: 0 | 1) {
  const { user, requireAccount } = useSession();
  const client = useQueryClient();
  // what the person chose, until the server's answer (the prop) changes: then the prop wins
  const [chosen, setChosen] = useState<{ over: 0 | 1; value: boolean } | null>(null);
  const followed = chosen && chosen.over === isfollowed ? chosen.value : isfollowed === 1;
  const setFollowed = (value: boolean) => setChosen({ over: isfollowed, value });
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);

  /**
   * Follows or unfollows. Answers 'done' (also when §8's alert shows), 'login' when the login modal
   * opened instead (the menu closes without taking focus back from it), or 'failed' (the menu stays).
   */
  const toggle = async (): Promise<'done' | 'login' | 'failed'> => {
    setAlert(null);
    if (!owner) {
      setAlert(FOLLOW_MISSING_USER_ID);
      return 'done';
    }
    if (!requireAccount(LOGIN_REASONS.follow)) return 'login';
    const next = !followed;
    setFollowed(next);
    setBusy(true);
    try {
      await setFollow(owner, next);
      void refreshFollowAnswers(client);
      return 'done';
    } catch (error) {
      console.warn('XPoint: follow failed', error);
      setFollowed(!next);
      return 'failed';
    } finally {
      setBusy(false);
    }
  };

  return { followed, busy, alert, isOwn: user !== null && owner === user.id, toggle };
}
