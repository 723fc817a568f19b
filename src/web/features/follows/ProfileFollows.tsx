import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { followListSchema, followsPushSchema } from '../../../shared/api/follows';
import { socialTopic } from '../../../shared/api/social-live';
import { profileLink } from '../../../shared/address/links';
import { apiQuery } from '../../lib/query';
import { useSocialTopic } from '../../live/socialTopic';
import { Dialog } from '../../ui/Dialog';
import { Avatar } from '../accounts/Avatar';
import { useSession } from '../accounts/session';
import { FollowButton } from './FollowButton';
import './follows.css';

type Side = 'followers' | 'following';

/**
 * A profile's follows (issue 18): the Follow button on other people's profiles, and the followers
 * and following counts, each opening its list (avatars, follow buttons). Counts follow live from
 * `social:U:{id}`, so a follow anywhere shows here without a reload.
 */
export function ProfileFollows({
  user,
  counts,
  isfollowed,
}: {
  user: { id: string; username: string; fullname: string };
  counts: { followers: number; following: number };
  isfollowed: 0 | 1;
}) {
  const [live, setLive] = useState(counts);
  const [list, setList] = useState<Side | null>(null);
  useSocialTopic(socialTopic('U', user.id), (message) => {
    if (message.kind !== 'follows') return;
    const data = followsPushSchema.safeParse(message.data);
    if (data.success && data.data.user_id === user.id)
      setLive({ followers: data.data.followers, following: data.data.following });
  });
  return (
    <div className="profile-follows">
      <FollowButton
        userId={user.id}
        fullname={user.fullname}
        isfollowed={isfollowed}
        onCount={(followers, followed) =>
          setLive((was) => ({
            ...was,
            followers: followers ?? Math.max(0, was.followers + (followed ? 1 : -1)),
          }))
        }
      />
      <button type="button" className="profile-follows__count" onClick={() => setList('followers')}>
        <strong>{live.followers}</strong> {live.followers === 1 ? 'follower' : 'followers'}
      </button>
      <button type="button" className="profile-follows__count" onClick={() => setList('following')}>
        <strong>{live.following}</strong> following
      </button>
      {list !== null && <FollowList username={user.username} side={list} onClose={() => setList(null)} />}
    </div>
  );
}

const PAGE_SIZE = 20;

function FollowList({ username, side, onClose }: { username: string; side: Side; onClose(): void }) {
  const { user } = useSession();
  const titleId = useId();
  const [page, setPage] = useState(1);
  const path = `/v1/users/${encodeURIComponent(username)}/${side}?pagenumber=${page}&pagesize=${PAGE_SIZE}`;
  const answer = useQuery(apiQuery(path, followListSchema, user?.id ?? ''));
  const pages = answer.data ? Math.max(1, Math.ceil(answer.data.total / PAGE_SIZE)) : 1;
  return (
    <Dialog className="follow-list" labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId}>{side === 'followers' ? `Followers of @${username}` : `@${username} follows`}</h2>
      {answer.isPending ? (
        <p role="status">Loading…</p>
      ) : answer.isError ? (
        <p role="alert">{answer.error.message}</p>
      ) : answer.data.items.length === 0 ? (
        <p>{side === 'followers' ? 'No followers yet.' : 'Not following anyone yet.'}</p>
      ) : (
        <ul className="follow-list__items">
          {answer.data.items.map((person) => (
            <li key={person.id}>
              <Link to={profileLink(person.username)} onClick={onClose} className="follow-list__who">
                <Avatar fullname={person.fullname} username={person.username} src={person.avatar_url} />
                <span>
                  <span className="follow-list__name">{person.fullname}</span>
                  <span className="follow-list__username">@{person.username}</span>
                </span>
              </Link>
              <FollowButton userId={person.id} fullname={person.fullname} isfollowed={person.isfollowed} />
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav className="follow-list__pages" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            {page} of {pages}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
      <button type="button" className="xp-button follow-list__close" onClick={onClose}>
        Close
      </button>
    </Dialog>
  );
}
