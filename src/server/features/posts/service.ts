import {
  COVER_CROP_SIZE,
  EMPTY_MEDIA,
  NEARBY_MAX_LOCATIONS,
  POST_DESCRIPTION_MAX_LENGTH,
  POST_IMAGE_MAX_BYTES,
  POST_TITLE_MAX_LENGTH,
  POST_VIDEO_MAX_BYTES,
  parseExpiry,
  postContract,
  postFormSchema,
  renewableAt,
  type NearbyPlace,
  type PostActionRequest,
  type PostForm,
  type PostFormState,
  type PostPage,
  type PostResult,
  type PostResultMode,
} from '../../../shared/api/posts';
import { markFollowed } from '../follows/queries';
import { parseContract } from '../../../shared/api/contract';
import { POST_CATEGORIES } from '../../../shared/domain/enums';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import { canChangePost, isAdmin, type Viewer } from '../../../shared/permissions';
import { distanceM } from '../../../shared/validation/points';
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN } from '../../../shared/validation/accounts';
import { requireViewer } from '../../auth/hook';
import { storePostCover } from '../../media/cover';
import type { MediaPlace } from '../../media/store';
import type { FilePart, MultipartUpload } from '../../media/upload';
import type { Store } from '../../store/store';
import { withImage } from '../points/media';
import * as q from './queries';
import { postLinkOf, postRecord } from './record';

/**
 * Posts (issue 17; social §3-§9): create, edit, renew, delete and hide, and the lists. Each public
 * method parses what the contract could not (the expiry, the place, the video), asks who may, then
 * works. Who may: visitors read (a hidden post only its author and admins); signed-in users create
 * and change their own posts; admins also edit, hide and delete anyone's. A refusal stores nothing.
 */

/** The limits counted per person on a save, shared through Redis with REDIS_URL (routes.ts). */
export type SaveLimit = 'create' | 'edit' | 'upload';

/** What a save needs from its HTTP request besides the fields. */
export interface SaveHooks {
  /** counts one `limit` for the viewer; throws rateLimited when it is used up */
  limit(kind: SaveLimit): Promise<void>;
  /** a refusal that says when to come back sets Retry-After */
  retryAfter(seconds: number): void;
  /** reads what follows the file part of a multipart body (nothing for JSON) */
  bodyRead(): Promise<void>;
}

export interface SaveResult {
  post: PostResult;
  mode: PostResultMode;
  /** where DoRedirect goes: the form's returnUrl, or the post's page */
  redirect: string;
  /** false when the same GUID was saved before by its author: nothing was written */
  created: boolean;
}

/** The cover a save brings: the file part, or the base64 of a JSON body. */
type CoverInput = { file: FilePart } | { base64: string } | 'remove' | undefined;

const MAX_NEARBY_ROWS = 4000;
/** The nearby search's first box and its cap (half the Earth's circumference). */
const NEARBY_FIRST_RADIUS_M = 250;
const NEARBY_MAX_RADIUS_M = 20_037_508;

export class PostService {
  constructor(
    private readonly store: Store,
    private readonly options: { media: MediaPlace; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** GET /myposts/details: a post anyone may read, but a hidden one only its author and admins. */
  async details(viewer: Viewer, id: string): Promise<PostResult> {
    const [record] = await markFollowed(this.store, viewer, [
      this.recordOf(viewer, await this.readablePost(viewer, id)),
    ]);
    return record as PostResult;
  }

  /** GET /myposts/edit: the form state of the viewer's post (or any post, for admins). */
  async editForm(viewer: Viewer, input: PostActionRequest): Promise<PostFormState> {
    requireViewer(viewer);
    const post = await this.readablePost(viewer, input.id);
    if (!canChangePost(viewer, post)) throw new AppError('forbidden');
    return formState(input, this.recordOf(viewer, post));
  }

  /**
   * POST /myposts/new: the empty form for the client's GUID. A GUID someone else's post already has
   * is refused now, before anything is typed; the viewer's own (a form opened twice) opens that post.
   */
  async newForm(viewer: Viewer, input: PostActionRequest): Promise<PostFormState> {
    const user = requireViewer(viewer);
    const existing = await q.findPost(this.store, input.id);
    if (existing && existing.user_id !== user.id) throw new AppError('postIdTaken');
    return formState(input, existing ? this.recordOf(viewer, existing) : null);
  }

  /** POST /myposts/save as JSON (an API client): the cover as base64 in `cover_image`. */
  async save(viewer: Viewer, input: PostForm, hooks: SaveHooks): Promise<SaveResult> {
    const cover: CoverInput =
      input.cover_image === undefined || input.cover_image === ''
        ? undefined
        : input.cover_image === EMPTY_MEDIA
          ? 'remove'
          : { base64: input.cover_image };
    return this.write(requireViewer(viewer), input, cover, hooks);
  }

  /**
   * POST /myposts/save as multipart/form-data (the form): the fields have been read and the file
   * part not; who may save this id is settled before a byte of the file is read.
   */
  async saveUpload(viewer: Viewer, upload: MultipartUpload, hooks: SaveHooks): Promise<SaveResult> {
    const user = requireViewer(viewer);
    const input = parseContract(postContract(postFormSchema), upload.fields);
    let cover: CoverInput;
    if (upload.file) cover = { file: upload.file };
    else if (input.cover_image === EMPTY_MEDIA) cover = 'remove';
    else if (input.cover_image !== undefined && input.cover_image !== '')
      // 64 KiB fields: a real image comes as the file part (streamed), never as a text field
      throw new AppError('invalidField', {
        field: 'cover_image',
        reason: 'in a form, send the image as the file part "cover_file" (or EMPTY to remove the cover).',
      });
    return this.write(user, input, cover, { ...hooks, bodyRead: upload.finish });
  }

  private async write(
    user: NonNullable<Viewer>,
    input: PostForm,
    cover: CoverInput,
    hooks: SaveHooks,
  ): Promise<SaveResult> {
    const now = this.now();
    const expiry = parseExpiry(input.expireson);
    const existing = await q.findPost(this.store, input.id);
    const redirect = input.returnUrl || postLinkOf(input.id);
    const answer = (post: PostResult, created: boolean): SaveResult => ({
      post,
      mode: input.resultMode,
      redirect,
      created,
    });

    if (existing && input.version === undefined && !input.torenew) {
      // the same GUID again: a create sent twice (a double click, a retry after a lost answer) is
      // answered with the post it made; someone else's GUID is never theirs to take
      if (existing.user_id !== user.id) throw new AppError('postIdTaken');
      return answer(this.recordOf(user, existing), false);
    }
    if (existing) {
      if (existing.hidden_at !== null && !canChangePost(user, existing))
        throw new AppError('postNotFound', { id: existing.id });
      if (!canChangePost(user, existing)) throw new AppError('forbidden');
      if (input.torenew && existing.user_id !== user.id) throw new AppError('postRenewNotAuthor');
      if (input.version !== undefined && input.version !== existing.version) throw new AppError('conflict');
    } else if (input.version !== undefined || input.torenew) {
      // an edit or renew of a post that is not there (deleted meanwhile)
      throw new AppError('postNotFound', { id: input.id });
    }

    const changes: q.PostChanges = {
      title: input.title,
      description: input.description,
      type: input.type,
      updated_at: now,
    };
    if (expiry !== undefined || !existing) changes.expires_at = expiry ?? null;
    Object.assign(changes, await this.placeOf(input, existing));
    if (input.video_id !== undefined) Object.assign(changes, await this.videoOf(user, input.video_id));

    if (input.torenew && existing) {
      const next = renewableAt(existing.renewed_at, now);
      if (next !== null) {
        const seconds = Math.ceil((next - now) / 1000);
        hooks.retryAfter(seconds);
        throw new AppError('postRenewTooSoon', { retry: waitText(seconds) });
      }
      const expiresAt = changes.expires_at !== undefined ? changes.expires_at : existing.expires_at;
      if (expiresAt !== null && expiresAt <= now) throw new AppError('postRenewNeedsExpiry');
      changes.listed_at = now;
      changes.renewed_at = now;
    }

    await hooks.limit(existing ? 'edit' : 'create');
    if (cover !== undefined && cover !== 'remove') await hooks.limit('upload');

    let read = false;
    const bodyRead = async () => {
      if (read) return;
      read = true;
      await hooks.bodyRead();
    };
    // the cover last of the checks: nothing is stored for a save refused before it
    let bitmask = existing?.file_resource_bitmask ?? 0;
    if (cover === 'remove') {
      Object.assign(changes, { image_url: null, image_variants: null });
      bitmask &= ~1;
    } else if (cover !== undefined) {
      const source = 'file' in cover ? cover.file : cover.base64;
      const stored = await withImage(source, this.options.media, async (bytes) => {
        // the rest of the body (a second file is refused) before the cover is stored, not after
        await bodyRead();
        return storePostCover(bytes, this.options.media);
      });
      Object.assign(changes, {
        image_url: stored.variants.detail,
        image_variants: JSON.stringify({
          ...stored.variants,
          placeholder: stored.placeholder,
          width: stored.width,
          height: stored.height,
        }),
      });
      bitmask |= 1;
    }
    await bodyRead();
    if (changes.video_id !== undefined) bitmask = changes.video_id === null ? bitmask & ~2 : bitmask | 2;
    changes.file_resource_bitmask = bitmask;

    if (!existing) {
      const inserted = await q.insertPost(this.store, {
        id: input.id,
        user_id: user.id,
        title: input.title,
        description: input.description,
        type: input.type,
        city_id: changes.city_id ?? null,
        xpoint_id: changes.xpoint_id ?? null,
        parent_type: changes.parent_type ?? null,
        image_url: changes.image_url ?? null,
        image_placeholder: null,
        image_variants: changes.image_variants ?? null,
        video_url: null,
        video_id: changes.video_id ?? null,
        file_resource_bitmask: bitmask,
        expires_at: changes.expires_at ?? null,
        created_at: now,
        updated_at: now,
        lat: changes.lat ?? null,
        lon: changes.lon ?? null,
        listed_at: now,
        renewed_at: null,
        hidden_at: null,
      });
      if (!inserted) {
        // another save of this GUID committed first (two tabs, a retry racing the first try)
        const winner = await q.findPost(this.store, input.id);
        if (!winner || winner.user_id !== user.id) throw new AppError('postIdTaken');
        return answer(this.recordOf(user, winner), false);
      }
    } else {
      const version = await q.updatePostIfVersion(
        this.store,
        existing.id,
        input.version ?? existing.version,
        changes,
      );
      if (version === null) throw new AppError('conflict');
    }
    const saved = await q.findPost(this.store, input.id);
    if (!saved) throw new AppError('postNotFound', { id: input.id });
    return answer(this.recordOf(user, saved), !existing);
  }

  /** POST /myposts/delete: the author's, or any post for an admin. */
  async remove(viewer: Viewer, input: PostActionRequest): Promise<{ id: string; redirect: string }> {
    const user = requireViewer(viewer);
    const post = await this.readablePost(user, input.id);
    if (!canChangePost(user, post)) throw new AppError('forbidden');
    if (!(await q.deletePost(this.store, post.id))) throw new AppError('postNotFound', { id: post.id });
    return { id: post.id, redirect: input.returnUrl || '/' };
  }

  /** POST /myposts/hide: admins hide a post from everyone but its author (and show it again). */
  async hide(viewer: Viewer, input: { id: string; hidden: boolean }): Promise<PostResult> {
    const user = requireViewer(viewer);
    if (!isAdmin(user)) throw new AppError('forbidden');
    const post = await q.findPost(this.store, input.id);
    if (!post) throw new AppError('postNotFound', { id: input.id });
    const hiddenAt = input.hidden ? (post.hidden_at ?? this.now()) : null;
    if (!(await q.setHidden(this.store, post.id, hiddenAt)))
      throw new AppError('postNotFound', { id: post.id });
    return this.details(user, post.id);
  }

  /**
   * POST /v1/locations/nearby: the points nearest to (lat, lon), nearest first, through the spatial
   * index. A box around the position grows (x4) until it holds `max` points within its inner circle,
   * so the answer is exact: every point nearer than the farthest one answered is in a box read. A
   * box too full to read whole (past 4,000 points) shrinks toward the last one that was not.
   */
  async nearby(input: { lat: number; lon: number; max_locations: number }): Promise<NearbyPlace[]> {
    const { lat, lon } = input;
    const max = Math.min(input.max_locations, NEARBY_MAX_LOCATIONS);
    let radius = NEARBY_FIRST_RADIUS_M;
    let lastComplete = 0;
    let best: { row: q.NearbyRow; distance: number }[] = [];
    for (let step = 0; step < 24; step++) {
      const rows = await q.attachablePointsIn(this.store, boxAround(lat, lon, radius), MAX_NEARBY_ROWS);
      const measured = rows
        .map((row) => ({ row, distance: distanceM(lat, lon, row.lat, row.lon) }))
        .sort((a, b) => a.distance - b.distance || a.row.id.localeCompare(b.row.id));
      if (rows.length >= MAX_NEARBY_ROWS) {
        // too many to know they are the nearest: the box shrinks halfway to the last complete one
        best = measured;
        if (radius <= 1) break;
        radius = lastComplete > 0 ? Math.sqrt(lastComplete * radius) : radius / 4;
        if (lastComplete > 0 && radius - lastComplete < 1) break;
        continue;
      }
      best = measured;
      const inside = measured.filter((m) => m.distance <= radius);
      if (inside.length >= max || radius >= NEARBY_MAX_RADIUS_M) {
        best = radius >= NEARBY_MAX_RADIUS_M ? measured : inside;
        break;
      }
      lastComplete = radius;
      radius = Math.min(NEARBY_MAX_RADIUS_M, radius * 4);
    }
    return best.slice(0, max).map(({ row, distance }) => ({
      xpointid: row.id,
      title: row.title,
      supertype: row.supertype,
      type: row.type,
      address: row.full_address,
      lat: row.lat,
      lon: row.lon,
      distance_m: Math.round(distance),
      city_forurl: row.city_forurl,
    }));
  }

  /** GET /v1/posts/point/{xpointid}: the point's live posts, newest first. */
  async pointPosts(
    viewer: Viewer,
    xpointId: string,
    paging: { pagenumber: number; pagesize: number },
  ): Promise<PostPage> {
    if (!isValidId(xpointId)) throw new AppError('invalidParam');
    const hidden: q.HiddenVisibleTo = isAdmin(viewer) ? 'all' : viewer ? { userId: viewer.id } : null;
    const { rows, total, totalCapped } = await q.pointPosts(
      this.store,
      xpointId,
      this.now(),
      hidden,
      offsetOf(paging),
    );
    return {
      items: await markFollowed(
        this.store,
        viewer,
        rows.map((row) => this.recordOf(viewer, row)),
      ),
      total,
      total_capped: totalCapped,
      ...paging,
    };
  }

  /** GET /v1/posts/user/{username}: a profile's posts, expired ones included and marked. */
  async userPosts(
    viewer: Viewer,
    username: string,
    paging: { pagenumber: number; pagesize: number },
  ): Promise<PostPage> {
    if (username.length > USERNAME_MAX_LENGTH || !USERNAME_PATTERN.test(username))
      throw new AppError('invalidField', {
        field: 'username',
        reason: `must be at most ${USERNAME_MAX_LENGTH} letters, digits, underscores (_) or hyphens (-).`,
      });
    const user = await q.findUserByUsername(this.store, username);
    if (!user) throw new AppError('notFound');
    return postsOfUser(this.store, viewer, user.id, paging, this.now());
  }

  /** The post, or 404 for a post that is not there or hidden from this viewer (it is not theirs to know of). */
  private async readablePost(viewer: Viewer, id: string): Promise<q.PostRow> {
    const post = await q.findPost(this.store, id);
    if (!post || (post.hidden_at !== null && !canChangePost(viewer, post)))
      throw new AppError('postNotFound', { id });
    return post;
  }

  /** The place columns a save sets: the point's, the city's, or (an edit naming neither) none. */
  private async placeOf(input: PostForm, existing: q.PostRow | undefined): Promise<q.PostChanges> {
    // EMPTY, as for the cover and the video: the post leaves its point (and the map), keeping its city
    // unless the save names another; an absent field keeps the place an edit had
    if (input.xpointid === EMPTY_MEDIA) {
      const city = input.city_forurl === undefined ? {} : await this.cityPlace(input.city_forurl);
      return { xpoint_id: null, parent_type: null, lat: null, lon: null, ...city };
    }
    if (input.xpointid !== undefined) {
      if (!isValidId(input.xpointid)) throw new AppError('invalidParam');
      const point = await q.pointPlace(this.store, input.xpointid);
      if (!point) throw new AppError('postPointNotFound', { id: input.xpointid });
      return {
        xpoint_id: point.id,
        parent_type: 'X',
        lat: point.lat,
        lon: point.lon,
        city_id: point.city_id,
      };
    }
    if (input.city_forurl !== undefined)
      return {
        xpoint_id: null,
        parent_type: null,
        lat: null,
        lon: null,
        ...(await this.cityPlace(input.city_forurl)),
      };
    return existing ? {} : { xpoint_id: null, parent_type: null, lat: null, lon: null, city_id: null };
  }

  private async cityPlace(cityForUrl: string): Promise<{ city_id: number }> {
    const city = await q.cityByForUrl(this.store, cityForUrl);
    if (!city) throw new AppError('postCityNotFound', { city: cityForUrl.slice(0, 80) });
    return { city_id: city.id };
  }

  /** The video a save names: the author's own upload (posts-video's table), or EMPTY to remove it. */
  private async videoOf(user: NonNullable<Viewer>, videoId: string): Promise<q.PostChanges> {
    if (videoId === EMPTY_MEDIA) return { video_id: null, video_url: null };
    const video = await q.findVideo(this.store, videoId);
    if (!video) throw new AppError('postVideoNotFound', { id: videoId.slice(0, 80) });
    if (video.user_id !== user.id) throw new AppError('postVideoNotYours');
    return { video_id: video.id };
  }

  private recordOf(viewer: Viewer, row: q.PostRow): PostResult {
    return postRecord(viewer, row, this.now());
  }
}

/** A person's posts as `viewer` sees them: their hidden ones only for them and admins (the profile's too). */
export async function postsOfUser(
  store: Store,
  viewer: Viewer,
  userId: string,
  paging: { pagenumber: number; pagesize: number },
  now = Date.now(),
): Promise<PostPage> {
  const hidden: q.HiddenVisibleTo = isAdmin(viewer) || viewer?.id === userId ? 'all' : null;
  const { rows, total, totalCapped } = await q.userPosts(store, userId, hidden, offsetOf(paging));
  return {
    items: await markFollowed(
      store,
      viewer,
      rows.map((row) => postRecord(viewer, row, now)),
    ),
    total,
    total_capped: totalCapped,
    ...paging,
  };
}

function formState(input: PostActionRequest, post: PostResult | null): PostFormState {
  return {
    action: '/myposts/save',
    id: input.id,
    resultMode: input.resultMode,
    returnUrl: input.returnUrl,
    post,
    categories: [...POST_CATEGORIES],
    limits: {
      title: POST_TITLE_MAX_LENGTH,
      description: POST_DESCRIPTION_MAX_LENGTH,
      image_bytes: POST_IMAGE_MAX_BYTES,
      video_bytes: POST_VIDEO_MAX_BYTES,
      crop_size: COVER_CROP_SIZE,
    },
  };
}

function offsetOf({ pagenumber, pagesize }: { pagenumber: number; pagesize: number }) {
  return { offset: (pagenumber - 1) * pagesize, limit: pagesize };
}

/** A box holding the circle of `radiusM` around a position, in degrees (its corners are farther). */
function boxAround(lat: number, lon: number, radiusM: number) {
  const dLat = radiusM / 111_320;
  const cos = Math.cos((lat * Math.PI) / 180);
  const dLon = radiusM / (111_320 * Math.max(0.000_001, cos));
  const south = Math.max(-90, lat - dLat);
  const north = Math.min(90, lat + dLat);
  // near a pole, or past half the world, every longitude
  if (dLon >= 180 || north >= 90 || south <= -90) return { south, north, west: -180, east: 180 };
  return { south, north, west: lon - dLon, east: lon + dLon };
}

/** 49 h, 3 h 5 min, 12 min: how long until a renew is allowed. */
function waitText(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  if (hours === 0) return `${Math.max(1, minutes)} min`;
  return minutes === 0 || minutes === 60
    ? `${hours + (minutes === 60 ? 1 : 0)} h`
    : `${hours} h ${minutes} min`;
}
