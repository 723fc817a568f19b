import type { MouseEvent } from 'react';
import type { PostResult } from '../../../shared/api/posts';
import { postLink } from '../../../shared/address/links';
import { CATEGORY_NAMES } from './categories';
import { usePostsHost } from './context';
import { formatPostDate } from './format';

/**
 * Posts as cards: the cover (its tiny placeholder painted first, then the feed-sized WebP with a
 * JPEG fallback), title, category, date and author, an "Expired" mark. Each is a link to /post/{id}
 * that opens the posts modal in place.
 */
export function PostCards({
  posts,
  showAuthor = true,
}: {
  posts: readonly PostResult[];
  showAuthor?: boolean;
}) {
  const host = usePostsHost();
  const open = (id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    host.open({ kind: 'details', id });
  };
  return (
    <ul className="posts-cards">
      {posts.map((post) => (
        <li key={post.postid} className={post.expired ? 'posts-card posts-card--expired' : 'posts-card'}>
          <a className="posts-card__link" href={postLink(post.postid)} onClick={open(post.postid)}>
            <picture className="posts-card__cover">
              {post.image_variants !== null && <source type="image/webp" srcSet={post.image_variants.feed} />}
              <img
                src={post.image_variants?.fallback ?? post.image_url}
                alt=""
                loading="lazy"
                style={
                  post.image_placeholder ? { backgroundImage: `url("${post.image_placeholder}")` } : undefined
                }
              />
            </picture>
            <span className="posts-card__text">
              <span className="posts-card__title">{post.title}</span>
              <span className="posts-card__meta">
                <span className="posts-tag">{CATEGORY_NAMES[post.type]}</span>
                {post.expired && <span className="posts-tag posts-tag--expired">Expired</span>}
                {post.has_video && <span className="posts-tag">Video</span>}
              </span>
              <span className="posts-card__byline">
                <time dateTime={new Date(post.addedon).toISOString()}>{formatPostDate(post.addedon)}</time>
                {showAuthor && ` · ${post.user_displayname}`}
              </span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
