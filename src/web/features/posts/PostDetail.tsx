import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FeedItemMenu } from '../follows/FeedItemMenu';
import Linkify from 'linkify-react';
import { useEffect, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { PostResult } from '../../../shared/api/posts';
import { fullscreenLink, postLink, profileLink } from '../../../shared/address/links';
import { errorText, useForgetOnLeave } from '../../lib/query';
import { Dialog } from '../../ui/Dialog';
import { Avatar } from '../accounts/Avatar';
import { PostLikeBar } from '../likes/PostLikeBar';
import { useSession } from '../accounts/session';
import { usePostsHost } from './context';
import { formatPostDate } from './format';
import { deletePost, hidePost, postDetailsPath, postDetailsQuery, refreshPosts, savePost } from './postsApi';
import { CATEGORY_NAMES } from './categories';
import { installOneVideoAtATime } from './video';
import { announcePostWrite } from './writes';
import { Comments } from '../comments/Comments';

/** How often a post whose video is being processed is read again. */
const VIDEO_POLL_MS = 3000;

/** Social §9: the copy-link confirmation shows for 2 s. */
export const COPIED_MS = 2000;

/** Links in a post's text: clickable, opened apart, and never vouched for (social §2 feed). */
const LINK_OPTIONS = {
  target: '_blank',
  rel: 'nofollow ugc noopener',
  // only web links: no `javascript:` or other schemes can come out of linkify, and mail stays text
  validate: { url: (value: string) => /^(https?:\/\/|www\.)/i.test(value), email: false },
} as const;

export interface PostDetailProps {
  id: string;
  /** the content has arrived (or failed): the modal's loading cover goes */
  onLoaded(): void;
  onEdit(): void;
  /** the post is gone (deleted): the modal closes */
  onDeleted(): void;
  onClose(): void;
}

/**
 * The post details view (social §2): the media box (the video with its poster and a play/pause
 * button, or the cover painted first from its tiny placeholder), title, linked description, author,
 * category, place and dates, the copy-link button, and for the author or an admin the edit, renew,
 * delete and (admins) hide controls. Wider than tall media lays the view out in landscape.
 */
export function PostDetail({ id, onLoaded, onEdit, onDeleted, onClose }: PostDetailProps) {
  const { user } = useSession();
  const resource = useQuery({
    ...postDetailsQuery(id, user?.id ?? ''),
    // while its video is on its way the post is read again, so the video shows once it is ready
    refetchInterval: (query) => {
      const state = query.state.data?.video_state;
      return state === 'uploading' || state === 'queued' || state === 'processing' ? VIDEO_POLL_MS : false;
    },
  });
  const settled = resource.status !== 'pending';
  useEffect(() => {
    if (settled) onLoaded();
  }, [settled, onLoaded]);

  if (resource.status === 'pending') return <p className="posts-detail__note">Loading the post…</p>;
  if (resource.status === 'error')
    return (
      <div className="posts-detail__note">
        <p role="alert">{errorText(resource.error)}</p>
        <BottomClose onClose={onClose} />
      </div>
    );
  return <PostView post={resource.data} onEdit={onEdit} onDeleted={onDeleted} onClose={onClose} />;
}

function BottomClose({ onClose }: { onClose(): void }) {
  return (
    <div className="posts-detail__bottom">
      <button type="button" className="xp-button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

function PostView({
  post,
  onEdit,
  onDeleted,
  onClose,
}: {
  post: PostResult;
  onEdit(): void;
  onDeleted(): void;
  onClose(): void;
}) {
  const host = usePostsHost();
  const [landscape, setLandscape] = useState(false);
  const follow = (path: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onClose();
    host.navigate(path);
  };
  const updated = post.updatedon > post.addedon + 60_000;
  return (
    <article className={landscape ? 'posts-detail posts-detail--landscape' : 'posts-detail'}>
      <MediaBox post={post} onShape={setLandscape} />
      <div className="posts-detail__body">
        <h3 className="posts-detail__title">{post.title}</h3>
        <p className="posts-detail__tags">
          <span className="posts-tag">{CATEGORY_NAMES[post.type]}</span>
          {post.expired && <span className="posts-tag posts-tag--expired">Expired</span>}
          {post.hidden && <span className="posts-tag posts-tag--hidden">Hidden</span>}
        </p>
        <p className="posts-detail__description">
          <Linkify options={LINK_OPTIONS}>{post.description}</Linkify>
        </p>
        <a
          className="posts-detail__author"
          href={profileLink(post.user_username)}
          onClick={follow(profileLink(post.user_username))}
        >
          <Avatar fullname={post.user_displayname} username={post.user_username} src={post.user_avatar} />
          <span>
            <span className="posts-detail__name">{post.user_displayname}</span>
            <span className="posts-detail__username">@{post.user_username}</span>
          </span>
        </a>
        <FeedItemMenu
          item={{ id: post.postid, url: post.url, owner: post.user_id, isfollowed: post.isfollowed }}
        />
        <dl className="posts-detail__facts">
          {post.xpointid !== null && (
            <div>
              <dt>Place</dt>
              <dd>
                <a href={fullscreenLink(post.xpointid)} onClick={follow(fullscreenLink(post.xpointid))}>
                  {post.xpoint_title ?? 'The place'}
                </a>
              </dd>
            </div>
          )}
          {post.city_name !== null && (
            <div>
              <dt>City</dt>
              <dd>{post.city_name}</dd>
            </div>
          )}
          <div>
            <dt>Posted</dt>
            <dd>
              <time dateTime={new Date(post.addedon).toISOString()}>{formatPostDate(post.addedon)}</time>
            </dd>
          </div>
          {updated && (
            <div>
              <dt>Updated</dt>
              <dd>
                <time dateTime={new Date(post.updatedon).toISOString()}>
                  {formatPostDate(post.updatedon)}
                </time>
              </dd>
            </div>
          )}
          {post.expireson !== null && (
            <div>
              <dt>{post.expired ? 'Expired' : 'Expires'}</dt>
              <dd>
                <time dateTime={new Date(post.expireson).toISOString()}>
                  {formatPostDate(post.expireson)}
                </time>
              </dd>
            </div>
          )}
        </dl>
        <PostLikeBar post={post} />
        <div className="posts-detail__actions">
          <CopyLink url={post.url} />
        </div>
        {(post.viewer.can_edit || post.viewer.can_delete || post.viewer.can_hide) && (
          <OwnerActions post={post} onEdit={onEdit} onDeleted={onDeleted} />
        )}
        <Comments postId={post.postid} postAuthorId={post.user_id} />
      </div>
      <BottomClose onClose={onClose} />
    </article>
  );
}

/** The video (poster first, our play/pause button) or the cover, painted first from its placeholder. */
function MediaBox({ post, onShape }: { post: PostResult; onShape(landscape: boolean): void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(installOneVideoAtATime, []);

  if (post.video_url !== null && !failed) {
    const toggle = () => {
      const video = videoRef.current;
      if (video === null) return;
      if (video.paused) void video.play().catch(() => setPlaying(false));
      else video.pause();
    };
    return (
      <div className="posts-media">
        <video
          ref={videoRef}
          className="posts-media__video"
          src={post.video_url}
          poster={post.video_poster_url ?? post.image_url}
          preload="metadata"
          playsInline
          aria-label={`Video: ${post.title}`}
          onLoadedMetadata={(event) =>
            onShape(event.currentTarget.videoWidth > event.currentTarget.videoHeight)
          }
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          // social §8: error code 4 is "no video": the cover is shown instead
          onError={() => setFailed(true)}
          onClick={toggle}
        />
        <button type="button" className="posts-media__play" aria-pressed={playing} onClick={toggle}>
          {playing ? 'Pause' : 'Play'}
        </button>
      </div>
    );
  }
  const variants = post.image_variants;
  const placeholder = post.image_placeholder;
  return (
    <div className="posts-media">
      <picture>
        {variants !== null && <source type="image/webp" srcSet={variants.detail} />}
        <img
          className="posts-media__image"
          src={variants?.fallback ?? post.image_url}
          alt={post.has_image ? `Cover of ${post.title}` : ''}
          style={placeholder ? { backgroundImage: `url("${placeholder}")` } : undefined}
          onLoad={(event) => onShape(event.currentTarget.naturalWidth > event.currentTarget.naturalHeight)}
        />
      </picture>
      {post.video_state !== null && post.video_state !== 'ready' && (
        <VideoStateNote state={post.video_state} error={post.video_error} />
      )}
    </div>
  );
}

function VideoStateNote({ state, error }: { state: string; error: string | null }) {
  const text: Record<string, string> = {
    uploading: 'The video is still uploading.',
    queued: 'The video is waiting to be processed.',
    processing: 'The video is being processed.',
    failed: `The video could not be processed${error ? `: ${error}` : '.'}`,
  };
  return (
    <p className="posts-media__state" role="status">
      {text[state] ?? state}
    </p>
  );
}

/** Copies the post's absolute /post/{id} address; 'COPIED' for 2 s (social §2, §9). */
function CopyLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    const absolute = new URL(url, window.location.origin).href;
    try {
      await navigator.clipboard.writeText(absolute);
      setFailed(null);
      setCopied(true);
    } catch {
      setFailed(`Copy this link: ${absolute}`);
    }
  };
  return (
    <>
      <button type="button" className="xp-button posts-detail__copy" onClick={() => void copy()}>
        {copied ? 'COPIED' : 'Copy link'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'Link copied' : ''}
      </span>
      {failed !== null && <p className="posts-detail__error">{failed}</p>}
    </>
  );
}

function OwnerActions({ post, onEdit, onDeleted }: { post: PostResult; onEdit(): void; onDeleted(): void }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<ReactNode>(null);
  const [confirming, setConfirming] = useState(false);
  const [now] = useState(() => Date.now());
  const hintId = useId();
  const renewable = post.renewable_at === null || post.renewable_at <= now;

  const forget = useForgetOnLeave();
  // each write is a mutation, so it refreshes what it changed itself (the app's catch-all refresh of
  // writes made outside mutations would read the deleted post's details again, and hear 404)
  const write = useMutation({ mutationFn: (work: () => Promise<string | null>) => work() });
  const run = async (label: string, work: () => Promise<string | null>) => {
    setBusy(label);
    setMessage(null);
    try {
      const problem = await write.mutateAsync(work);
      if (problem !== null) setMessage(problem);
      await refreshPosts(client, label === 'delete' ? postDetailsPath(post.postid) : undefined);
    } catch (error) {
      setMessage(errorText(error));
    } finally {
      setBusy(null);
    }
  };

  const renew = () =>
    run('renew', async () => {
      const answer = await savePost(
        '/myposts/save',
        {
          id: post.postid,
          version: String(post.version),
          title: post.title,
          description: post.description,
          type: post.type,
          xpointid: post.xpointid ?? undefined,
          // an expired post comes back without its past expiry (the server refuses a renew that
          // would leave it expired); any other keeps its expiry
          expireson: post.expired ? '' : undefined,
          torenew: 'true',
          resultMode: 'ReturnJson',
          returnUrl: postLink(post.postid),
        },
        null,
        () => undefined,
        new AbortController().signal,
      );
      if (answer.error_n > 0) return answer.error_msg || 'Server returned Error!';
      announcePostWrite(answer.post);
      return null;
    });

  const remove = () =>
    run('delete', async () => {
      const answer = await deletePost(post.postid, '/');
      if (answer.error_n > 0) return answer.error_msg || 'Server returned Error!';
      announcePostWrite(null);
      // the deleted post's answer goes with its view, never read again
      forget({ queryKey: [postDetailsPath(post.postid)] });
      onDeleted();
      return null;
    });

  const toggleHidden = () =>
    run('hide', async () => {
      await hidePost(post.postid, !post.hidden);
      announcePostWrite(null);
      return null;
    });

  return (
    <div className="posts-detail__owner" role="group" aria-label="Your post">
      {post.viewer.can_edit && (
        <button type="button" className="xp-button" disabled={busy !== null} onClick={onEdit}>
          Edit
        </button>
      )}
      {post.viewer.can_edit &&
        (renewable ? (
          <button
            type="button"
            className="xp-button"
            disabled={busy !== null}
            aria-describedby={post.expired ? `${hintId}-renew` : undefined}
            onClick={() => void renew()}
          >
            {busy === 'renew' ? 'Renewing…' : 'Renew'}
          </button>
        ) : (
          <span className="posts-detail__hint">
            Renew possible from {formatPostDate(post.renewable_at ?? now)}
          </span>
        ))}
      {post.viewer.can_edit && renewable && post.expired && (
        <span className="posts-detail__hint" id={`${hintId}-renew`}>
          Renewing brings it back to the top and clears its past expiry date.
        </span>
      )}
      {post.viewer.can_delete && (
        <button
          type="button"
          className="xp-button posts-detail__danger"
          disabled={busy !== null}
          onClick={() => setConfirming(true)}
        >
          {busy === 'delete' ? 'Deleting…' : 'Delete'}
        </button>
      )}
      {post.viewer.can_hide && (
        <button
          type="button"
          className="xp-button"
          disabled={busy !== null}
          onClick={() => void toggleHidden()}
        >
          {post.hidden ? 'Show' : 'Hide'}
        </button>
      )}
      {message !== null && (
        <p className="posts-detail__error" role="alert">
          {message}
        </p>
      )}
      {confirming && (
        <ConfirmDelete
          title={post.title}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void remove();
          }}
        />
      )}
    </div>
  );
}

function ConfirmDelete({
  title,
  onCancel,
  onConfirm,
}: {
  title: string;
  onCancel(): void;
  onConfirm(): void;
}) {
  const titleId = useId();
  return (
    <Dialog
      className="posts-confirm"
      labelledBy={titleId}
      onClose={onCancel}
      initialFocus=".posts-confirm__cancel"
    >
      <h2 id={titleId} className="xp-modal__title">
        Delete this post?
      </h2>
      <p>“{title}” will be removed for everyone. This cannot be undone.</p>
      <div className="posts-confirm__actions">
        <button type="button" className="xp-button posts-confirm__cancel" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="xp-button posts-detail__danger" onClick={onConfirm}>
          Delete
        </button>
      </div>
    </Dialog>
  );
}
