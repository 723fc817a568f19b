import { useQuery } from '@tanstack/react-query';
import { useContext, useEffect, useState } from 'react';
import { POSTS_PAGE_SIZE } from '../../../shared/api/posts';
import { ShellContext } from '../../shell/context';
import { useSession } from '../accounts/session';
import { usePostsHost, type PlaceChoice } from './context';
import { hasFlag, scrollToPostsBlock, withoutCreatePost } from './flags';
import { PostCards, PostsLoading } from './PostCards';
import { StandaloneProviders } from '../accounts/StandaloneProviders';
import { PostsModalHost } from './PostsModalHost';
import { pointPostsQuery } from './postsApi';
import './posts.css';

export interface PointPostsProps {
  point: PlaceChoice;
  /** follows a link (the app's navigation inside the shell; a page load on the server's page) */
  navigate?: (path: string) => void;
}

const assign = (path: string) => window.location.assign(path);

/**
 * The posts block of a point's full-screen page (social §2 "Full-screen map page: posts list,
 * create-post box"): the point's live posts, newest first, each opening the posts modal; a box to
 * create a post there (a visitor gets the login modal); an honest empty state. It also answers the
 * address flags createpost=open (the form, with this point chosen) and posts=1 (scrolls here).
 */
export default function PointPosts({ point, navigate = assign }: PointPostsProps) {
  return (
    <StandaloneProviders>
      <PostsModalHost navigate={navigate} origin={() => ({ lat: point.lat, lon: point.lon })}>
        <PointPostsBlock point={point} />
      </PostsModalHost>
    </StandaloneProviders>
  );
}

function PointPostsBlock({ point }: { point: PlaceChoice }) {
  const { user, signedIn } = useSession();
  const host = usePostsHost();
  const shell = useContext(ShellContext);
  const [page, setPage] = useState(1);
  const posts = useQuery(pointPostsQuery(point.xpointid, user?.id ?? '', page));

  // createpost=open: inside the app the shell's address says so; on the server's page, the page's own
  const flag = shell !== null ? shell.parsed.createPost : hasFlag(window.location.search, 'createpost');
  useEffect(() => {
    if (!flag) return;
    host.open({ kind: 'new', place: point });
    const cleaned = withoutCreatePost(window.location.pathname, window.location.search);
    if (shell !== null) shell.navigation.replace(cleaned);
    else window.history.replaceState(window.history.state, '', cleaned + window.location.hash);
    // once per flag: the point and the host do not change while the block is shown
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flag]);
  useEffect(() => (hasFlag(window.location.search, 'posts') ? scrollToPostsBlock() : undefined), []);

  const total = posts.data?.total ?? 0;
  // past a capped count (POSTS_COUNT_CAP) the pages go on while they are full
  const capped = posts.data?.total_capped === true;
  const full = (posts.data?.items.length ?? 0) === POSTS_PAGE_SIZE;
  const pages = Math.max(1, Math.ceil(total / POSTS_PAGE_SIZE), capped && full ? page + 1 : 1);
  return (
    <div className="posts-block" data-posts-block="">
      <div className="posts-create">
        <p className="posts-create__text">
          {signedIn
            ? `Share a deal, a gig or news from ${point.title}.`
            : `Sign in to post about ${point.title}.`}
        </p>
        <button
          type="button"
          className="xp-button xp-button--primary"
          onClick={() => host.open({ kind: 'new', place: point })}
        >
          Create a post
        </button>
      </div>
      <PostsLoading status={posts.status} error={posts.error} />
      {posts.status === 'success' &&
        (posts.data.items.length === 0 ? (
          <p className="empty-note">No posts from {point.title} yet.</p>
        ) : (
          <>
            <PostCards posts={posts.data.items} />
            {pages > 1 && (
              <nav className="posts-pager" aria-label="Posts pages">
                <button
                  type="button"
                  className="xp-button"
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                >
                  Prev
                </button>
                <span>{capped ? `Page ${page}` : `Page ${page} of ${pages}`}</span>
                <button
                  type="button"
                  className="xp-button"
                  disabled={page >= pages}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </button>
              </nav>
            )}
          </>
        ))}
    </div>
  );
}
