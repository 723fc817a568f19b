import { Suspense, lazy, useEffect } from 'react';
import { ProfileFollows } from '../follows/ProfileFollows';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  PROFILE_DEFAULT_PAGENUMBER,
  PROFILE_DEFAULT_PAGESIZE,
  PROFILE_MAX_PAGENUMBER,
  PROFILE_MAX_PAGESIZE,
  parsePagingValue,
  type ProfileResponse,
} from '../../../shared/api/profiles';
import { Avatar } from './Avatar';
import { PageHeader } from './PageHeader';
import { PointCard } from './PointCard';
import { useProfile } from './useProfile';
import './pages.css';

/** The profile's posts (issue 17: paged, expired ones marked, each opening the posts modal). */
const ProfilePosts = lazy(() => import('../posts/ProfilePosts'));

/**
 * /u/{username}: avatar, full name, @username, counts, the user's points (paged by pagenumber and
 * pagesize in the address, defaults 1 and 12, social §2: the address keeps them, so coming back
 * after an edit returns to the same page) and posts (features/posts: paged by the same address
 * values, expired ones marked).
 */
export function ProfilePage() {
  const { username = '' } = useParams();
  const [params] = useSearchParams();
  const pagenumber = parsePagingValue(
    params.get('pagenumber') ?? undefined,
    PROFILE_DEFAULT_PAGENUMBER,
    PROFILE_MAX_PAGENUMBER,
  );
  const pagesize = parsePagingValue(
    params.get('pagesize') ?? undefined,
    PROFILE_DEFAULT_PAGESIZE,
    PROFILE_MAX_PAGESIZE,
  );
  const state = useProfile(username, { pagenumber, pagesize });

  const fullname = state.status === 'ready' ? state.profile.user.fullname : null;
  useEffect(() => {
    document.title = fullname ? `${fullname} (@${username}) — XPoint` : `@${username} — XPoint`;
  }, [fullname, username]);

  return (
    <div className="page">
      <PageHeader />
      <main className="page__main profile" aria-busy={state.status === 'loading'}>
        {state.status === 'loading' && (
          <p className="profile__note" role="status">
            Loading @{username}…
          </p>
        )}
        {state.status === 'missing' && (
          <div className="profile__note">
            <h1>No one is called @{username}.</h1>
            <p>
              Check the spelling, or <Link to="/">go back to the map</Link>.
            </p>
          </div>
        )}
        {state.status === 'error' && (
          <p className="profile__note" role="alert">
            {state.message}
          </p>
        )}
        {state.status === 'ready' && (
          <ProfileBody profile={state.profile} pagenumber={pagenumber} pagesize={pagesize} />
        )}
      </main>
    </div>
  );
}

function pageLink(pagenumber: number, pagesize: number): string {
  return `?pagenumber=${pagenumber}&pagesize=${pagesize}`;
}

function ProfileBody({
  profile,
  pagenumber,
  pagesize,
}: {
  profile: ProfileResponse;
  pagenumber: number;
  pagesize: number;
}) {
  const { user, points, posts, counts } = profile;
  const pages = Math.max(1, Math.ceil(points.total / points.pagesize));
  const first = points.total === 0 ? 0 : (points.pagenumber - 1) * points.pagesize + 1;
  const last = Math.min(points.total, points.pagenumber * points.pagesize);
  return (
    <>
      <section className="profile__card" aria-labelledby="profile-name">
        <Avatar fullname={user.fullname} username={user.username} src={user.avatar} size={88} />
        <div className="profile__who">
          <h1 id="profile-name" className="profile__name">
            {user.fullname}
          </h1>
          <p className="profile__username">@{user.username}</p>
          <dl className="profile__counts">
            <div>
              <dt>Points</dt>
              <dd>{points.total}</dd>
            </div>
            <div>
              <dt>Posts</dt>
              <dd>{posts.total}</dd>
            </div>
            <div>
              <dt>Reviews</dt>
              <dd>{counts.reviews}</dd>
            </div>
          </dl>
          <ProfileFollows user={user} counts={counts} isfollowed={profile.isfollowed ?? 0} />
        </div>
      </section>

      <section className="profile__section" aria-labelledby="profile-points">
        <h2 id="profile-points">Points</h2>
        {points.total === 0 ? (
          <p className="profile__empty">@{user.username} has no points yet.</p>
        ) : points.items.length === 0 ? (
          <p className="profile__empty">
            There is no page {points.pagenumber}.{' '}
            <Link to={pageLink(1, points.pagesize)}>Go to the first page</Link>.
          </p>
        ) : (
          <>
            <p className="profile__range" aria-live="polite">
              {first}–{last} of {points.total}
            </p>
            <ul className="point-cards">
              {points.items.map((point) => (
                <li key={point.id}>
                  <PointCard point={point} />
                </li>
              ))}
            </ul>
          </>
        )}
        {pages > 1 && (
          <nav className="pager" aria-label="Points pages">
            {points.pagenumber > 1 ? (
              <Link
                className="xp-button"
                rel="prev"
                to={pageLink(Math.min(points.pagenumber - 1, pages), points.pagesize)}
              >
                Prev
              </Link>
            ) : (
              <span className="xp-button" aria-disabled="true">
                Prev
              </span>
            )}
            <span className="pager__at">
              Page {points.pagenumber} of {pages}
            </span>
            {points.pagenumber < pages ? (
              <Link className="xp-button" rel="next" to={pageLink(points.pagenumber + 1, points.pagesize)}>
                Next
              </Link>
            ) : (
              <span className="xp-button" aria-disabled="true">
                Next
              </span>
            )}
          </nav>
        )}
      </section>

      <Suspense
        fallback={
          <p className="profile__empty" role="status">
            Loading posts…
          </p>
        }
      >
        <ProfilePosts
          username={user.username}
          pagenumber={pagenumber}
          pagesize={pagesize}
          firstPage={posts}
        />
      </Suspense>
    </>
  );
}
