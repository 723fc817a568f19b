import { renewableAt, type PostResult } from '../../../shared/api/posts';
import { POST_CATEGORIES, type PostCategory } from '../../../shared/domain/enums';
import { canChangePost, isAdmin, type Viewer } from '../../../shared/permissions';
import { isPostPlaceholder, placeholderCoverUrl, placeholderUrl } from '../../media/placeholders';
import { NO_LIKES, type LikeSummary } from '../likes/queries';
import type { PostRow } from './queries';

/** A post's address in the app: the app with the post open in its modal (what "copy link" copies). */
export function postLinkOf(id: string): string {
  return `/post/${id}`;
}

/**
 * Social §3's post result record of a stored post, as `viewer` may see it at `now`: the video's
 * address and poster only once it is ready, why it failed only for its author; `expired` and
 * `renewable_at` as of `now`; its like counts and the viewer's own like from `likes` (likes/queries.ts).
 */
export function postRecord(
  viewer: Viewer,
  row: PostRow,
  now: number,
  likes: LikeSummary = NO_LIKES,
): PostResult {
  const variants = parseVariants(row.image_variants);
  const mayChange = canChangePost(viewer, row);
  const isAuthor = viewer?.id === row.user_id;
  const ready = row.video_state === 'ready';
  const hasVideo = row.video_id !== null || row.video_url !== null;
  const category = (POST_CATEGORIES as readonly string[]).includes(row.type)
    ? (row.type as PostCategory)
    : 'general';
  return {
    postid: row.id,
    title: row.title,
    description: row.description,
    type: category,
    city_forurl: row.city_forurl,
    city_id: row.city_id,
    city_name: row.city_name,
    // no cover: the placeholder the seed chose for it (social §1's names), else its category's
    image_url:
      row.image_url ??
      (row.image_placeholder && isPostPlaceholder(row.image_placeholder)
        ? placeholderUrl(row.image_placeholder)
        : placeholderCoverUrl(category)),
    image_placeholder: variants?.placeholder ?? null,
    image_variants: variants
      ? { map: variants.map, feed: variants.feed, detail: variants.detail, fallback: variants.fallback }
      : null,
    fileResourceBitMask: row.file_resource_bitmask,
    has_image: row.image_url !== null,
    has_video: hasVideo,
    video_url: row.video_id !== null ? (ready ? row.video_file_url : null) : row.video_url,
    video_poster_url: ready ? row.video_poster_url : null,
    video_state: row.video_id !== null ? videoState(row.video_state) : row.video_url ? 'ready' : null,
    video_error: isAuthor ? row.video_error : null,
    error_n: 0,
    error_msg: '',
    user_id: row.user_id,
    user_username: row.username,
    user_displayname: row.fullname,
    user_avatar: row.avatar_url,
    addedon: row.created_at,
    updatedon: row.updated_at,
    xpointid: row.xpoint_id,
    xpoint_title: row.xpoint_title,
    parent_type: row.parent_type,
    lat: row.lat,
    lon: row.lon,
    expireson: row.expires_at,
    expired: row.expires_at !== null && row.expires_at <= now,
    hidden: row.hidden_at !== null,
    renewable_at: renewableAt(row.renewed_at, now),
    version: row.version,
    comments_count: Number(row.comments_count),
    url: postLinkOf(row.id),
    viewer: { can_edit: mayChange, can_delete: mayChange, can_hide: isAdmin(viewer) },
    // set by the lists and details from the viewer's follows (follows/queries.ts markFollowed)
    isfollowed: 0,
    likes_up: likes.likes_up,
    likes_down: likes.likes_down,
    my_like: likes.my_like,
  };
}

interface StoredVariants {
  map: string;
  feed: string;
  detail: string;
  fallback: string;
  placeholder: string | null;
}

function parseVariants(json: string | null): StoredVariants | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as Partial<StoredVariants>;
    if (!value.map || !value.feed || !value.detail || !value.fallback) return null;
    return {
      map: value.map,
      feed: value.feed,
      detail: value.detail,
      fallback: value.fallback,
      placeholder: typeof value.placeholder === 'string' ? value.placeholder : null,
    };
  } catch {
    return null;
  }
}

const VIDEO_STATES = ['uploading', 'queued', 'processing', 'ready', 'failed'] as const;
function videoState(state: string | null): PostResult['video_state'] {
  return (VIDEO_STATES as readonly string[]).includes(state ?? '')
    ? (state as PostResult['video_state'])
    : 'failed';
}
