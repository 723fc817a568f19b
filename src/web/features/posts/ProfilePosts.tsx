import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { PostPage } from '../../../shared/api/posts';
import { useSession } from '../accounts/session';
import { hasFlag, scrollToPostsBlock, withoutCreatePost } from './flags';
import { PostCards, PostsLoading } from './PostCards';
import { PostsModalHost } from './PostsModalHost';
import { userPostsQuery } from './postsApi';
import { usePostsHost } from './context';
import './posts.css';

export interface ProfilePostsProps {
  username: string;
  /** the address's paging (social §2: kept when coming back after an edit) */
  pagenumber: number;
  pagesize: number;
  /** the page the profile's own answer carries (page 1 of 12): shown without asking again */
  firstPage?: PostPage;
}

/**
 * A profile's posts (/u/{username}), expired ones included and marked, paged by the address's
 * pagenumber and pagesize (defaults 1 and 12); each opens the posts modal. The page also answers
 * createpost=open (the form) and posts=1 (scrolls here).
 */
export default function ProfilePosts(props: ProfilePostsProps) {
  const navigate = useNavigate();
  return (
    <PostsModalHost navigate={(path) => void navigate(path)}>
      <ProfilePostsBlock {...props} />
    </PostsModalHost>
  );
}

function ProfilePostsBlock({ username, pagenumber, pagesize, firstPage }: ProfilePostsProps) {
  const { user } = useSession();
  const host = usePostsHost();
  const location = useLocation();
  const navigate = useNavigate();
  const carried =
    firstPage !== undefined && firstPage.pagenumber === pagenumber && firstPage.pagesize === pagesize
      ? firstPage
      : undefined;
  const posts = useQuery({
    ...userPostsQuery(username, user?.id ?? '', pagenumber, pagesize),
    ...(carried === undefined ? {} : { initialData: carried }),
  });
  const own = user?.username === username;

  const flag = hasFlag(location.search, 'createpost');
  useEffect(() => {
    if (!flag) return;
    host.open({ kind: 'new' });
    void navigate(withoutCreatePost(location.pathname, location.search), { replace: true });
  }, [flag, host, navigate, location.pathname, location.search]);
  useEffect(() => (hasFlag(window.location.search, 'posts') ? scrollToPostsBlock() : undefined), []);

  const pageLink = (page: number) => `?pagenumber=${page}&pagesize=${pagesize}`;
  const total = posts.data?.total ?? 0;
  // a capped total (more than POSTS_COUNT_CAP) has pages past the count: Next stays while pages are full
  const capped = posts.data?.total_capped === true;
  const full = (posts.data?.items.length ?? 0) === pagesize;
  const pages = Math.max(1, Math.ceil(total / pagesize), capped && full ? pagenumber + 1 : 1);
  const totalText = capped ? `${total.toLocaleString('en')}+` : String(total);
  return (
    <section className="profile__section posts-block" aria-labelledby="profile-posts" data-posts-block="">
      <div className="posts-block__head">
        <h2 id="profile-posts">Posts</h2>
        {own && (
          <button
            type="button"
            className="xp-button xp-button--primary"
            onClick={() => host.open({ kind: 'new' })}
          >
            New post
          </button>
        )}
      </div>
      <PostsLoading status={posts.status} error={posts.error} />
      {posts.status === 'success' &&
        (posts.data.total === 0 ? (
          <p className="posts-block__note">@{username} has not posted yet.</p>
        ) : posts.data.items.length === 0 ? (
          <p className="posts-block__note">
            There is no page {pagenumber}. <Link to={pageLink(1)}>Go to the first page</Link>.
          </p>
        ) : (
          <>
            <p className="posts-block__note" aria-live="polite">
              {(pagenumber - 1) * pagesize + 1}–{(pagenumber - 1) * pagesize + posts.data.items.length} of{' '}
              {totalText}
            </p>
            <PostCards posts={posts.data.items} showAuthor={false} />
          </>
        ))}
      {pages > 1 && (
        <nav className="posts-pager" aria-label="Posts pages">
          {pagenumber > 1 ? (
            <Link className="xp-button" rel="prev" to={pageLink(Math.min(pagenumber - 1, pages))}>
              Prev
            </Link>
          ) : (
            <span className="xp-button" aria-disabled="true">
              Prev
            </span>
          )}
          <span>{capped ? `Page ${pagenumber}` : `Page ${pagenumber} of ${pages}`}</span>
          {pagenumber < pages ? (
            <Link className="xp-button" rel="next" to={pageLink(pagenumber + 1)}>
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
  );
}
