import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { PostResult } from '../../../shared/api/posts';
import { postLink } from '../../../shared/address/links';
import { errorText } from '../../lib/query';
import { useFollowToggle } from '../follows/useFollowToggle';
import { LikeCounts } from '../likes/LikeBar';
import { CATEGORY_NAMES } from './categories';
import { usePostsHost } from './context';
import { formatPostDate } from './format';
import { COPIED_MS } from './PostDetail';

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
          <PostCardMenu post={post} />
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
              <LikeCounts up={post.likes_up} down={post.likes_down} />
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The feed-item menu of social §2 (copy link, follow or unfollow the author, cancel; for the author,
 * edit instead of follow): an ARIA menu button (arrows move, Escape and Cancel close it and give focus
 * back).
 */
function PostCardMenu({ post }: { post: PostResult }) {
  const host = usePostsHost();
  const follow = useFollowToggle(post.user_id, post.isfollowed);
  const id = useId();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(new URL(post.url, window.location.origin).href);
      setCopied(true);
    } catch {
      window.prompt('Copy this link:', new URL(post.url, window.location.origin).href);
    }
    close();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div className="posts-card__menu">
      <button
        ref={button}
        type="button"
        className="posts-card__more"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={copied ? 'COPIED' : `More for ${post.title}`}
        onClick={() => setOpen(!open)}
      >
        {copied ? 'COPIED' : '⋯'}
      </button>
      {open && (
        <div
          ref={menu}
          id={id}
          role="menu"
          className="posts-card__list"
          aria-label={post.title}
          onKeyDown={onKeyDown}
        >
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => void copy()}>
            Copy link
          </button>
          {post.viewer.can_edit && (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                host.open({ kind: 'edit', id: post.postid });
              }}
            >
              Edit
            </button>
          )}
          {!follow.isOwn && (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              disabled={follow.busy}
              onClick={() =>
                void follow.toggle().then((outcome) => {
                  if (outcome === 'done') close();
                  else if (outcome === 'login') setOpen(false);
                })
              }
            >
              {follow.followed ? `Unfollow ${post.user_displayname}` : `Follow ${post.user_displayname}`}
            </button>
          )}
          <button type="button" role="menuitem" tabIndex={-1} onClick={close}>
            Cancel
          </button>
        </div>
      )}
      {follow.alert !== null && (
        <p className="posts-card__alert" role="alert">
          {follow.alert}
        </p>
      )}
    </div>
  );
}

/** A posts list's loading and failure notes (the point's and the profile's lists show the same). */
export function PostsLoading({ status, error }: { status: 'pending' | 'error' | 'success'; error: unknown }) {
  if (status === 'pending')
    return (
      <p className="posts-block__note" role="status">
        Loading posts…
      </p>
    );
  if (status === 'error')
    return (
      <p className="posts-block__note" role="alert">
        The posts could not be loaded: {errorText(error)}
      </p>
    );
  return null;
}
