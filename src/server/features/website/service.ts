import fs from 'node:fs';
import { AppError } from '../../../shared/errors';
import type { PointDetails } from '../../../shared/api/details';
import { canHaveSites, type Viewer } from '../../../shared/permissions';
import {
  WEBSITE_PART_COUNT,
  fieldsProblem,
  isPartIndex,
  isPictureIndex,
  normaliseText,
  type WebsiteAutoContent,
  type WebsiteField,
  type WebsiteFieldChange,
  type WebsiteView,
  type WebsiteWriteResult,
} from '../../../shared/website';
import { requireViewer } from '../../auth/hook';
import { storePostCover } from '../../media/cover';
import type { MediaPlace } from '../../media/store';
import type { Store } from '../../store/store';
import { DetailService, type WarnLog } from '../details/service';
import { authorize, pointOr404, subjectOf } from '../points/access';
import { pointPosts } from '../posts/queries';
import { postLinkOf } from '../posts/record';
import { reviewsPage } from '../reviews/queries';
import * as q from './queries';

/** How many posts, events and reviews a site shows where the owner wrote nothing. */
export const AUTO_POSTS = 3;
export const AUTO_EVENTS = 3;
export const AUTO_REVIEWS = 3;
/** The reviews read to choose the best from: the newest page (the reviews slice's own query). */
const REVIEWS_READ = 20;

/** `{field}` names as the calls spell them: the JSON calls say part_idx, the multipart one partidx. */
export interface IndexNames {
  part: string;
  pic: string;
}
const JSON_NAMES: IndexNames = { part: 'part_idx', pic: 'pic_idx' };

/** The version an editor read, when it sent one (the calls of §7 carry none; ours may). */
function expectedVersion(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new AppError('invalidField', {
      field: 'version',
      reason: 'must be the whole number the editor read.',
    });
  return n;
}

export function partIndex(value: unknown, field = JSON_NAMES.part): number {
  const n = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  if (!isPartIndex(n)) throw new AppError('websitePartIndexInvalid', { field, max: WEBSITE_PART_COUNT });
  return n;
}

export function pictureIndex(value: unknown, field = JSON_NAMES.pic): number {
  const n = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  if (!isPictureIndex(n)) throw new AppError('websitePictureIndexInvalid', { field });
  return n;
}

/** Social §5 boolean parsing: 1, true, on, checked, yes are true; 0, false, off, no are false. */
export function parseEnabled(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value ?? '')
    .trim()
    .toLowerCase();
  if (['1', 'true', 'on', 'checked', 'yes'].includes(text)) return true;
  if (['0', 'false', 'off', 'no'].includes(text)) return false;
  throw new AppError('invalidField', { field: 'enabled', reason: 'must be true or false.' });
}

/** The catalogue's error for the first problem of a part's field list. */
export function checkFields(fields: readonly WebsiteFieldChange[]): void {
  const problem = fieldsProblem(fields);
  if (problem === null) return;
  switch (problem.kind) {
    case 'empty':
      throw new AppError('websiteFieldsEmpty');
    case 'unknown':
      throw new AppError('websiteFieldUnknown', { name: problem.name.slice(0, 40) });
    case 'twice':
      throw new AppError('websiteFieldTwice', { name: problem.name });
    case 'tooLong':
      throw new AppError('websiteFieldTooLong', { field: problem.name, max: problem.max });
  }
}

/**
 * The owner's website (issue 20). Every write starts with the same check, in this order: signed in,
 * the point exists, it can have a site (help requests and incidents cannot, map-and-search §6), the
 * viewer controls it (owner, consultant or admin: the authorisation table's 'update'). Then the
 * change and the version bump happen in one transaction, or nothing does.
 */
export class WebsiteService {
  private readonly details: DetailService;

  constructor(
    private readonly store: Store,
    private readonly media: MediaPlace,
  ) {
    this.details = new DetailService(store);
  }

  /** The point, if the viewer may edit its site. */
  async controlled(viewer: Viewer, id: string) {
    requireViewer(viewer);
    const point = await pointOr404(this.store, id);
    if (!canHaveSites(point)) throw new AppError('websiteNotForReports');
    authorize(viewer, 'update', subjectOf(point));
    return point;
  }

  /** Runs one write and bumps the version; a stale `version` is a 409 and nothing is written. */
  private async write(
    id: string,
    partIdx: number,
    version: unknown,
    change: (tx: Parameters<typeof q.bumpVersion>[0], now: number) => Promise<void>,
  ): Promise<WebsiteWriteResult> {
    const expected = expectedVersion(version);
    const now = Date.now();
    const next = await this.store.db.transaction().execute(async (tx) => {
      const bumped = await q.bumpVersion(tx, id, expected, now);
      if (bumped === null) throw new AppError('conflict');
      await change(tx, now);
      return bumped;
    });
    return {
      status: 'success',
      xpointid: id,
      version: next,
      part: await q.sitePart(this.store.db, id, partIdx),
    };
  }

  async setSection(viewer: Viewer, body: Record<string, unknown>): Promise<WebsiteWriteResult> {
    const point = await this.controlled(viewer, String(body['xpointid'] ?? ''));
    const partIdx = partIndex(body['part_idx']);
    const enabled = parseEnabled(body['enabled']);
    return this.write(point.id, partIdx, body['version'], (tx, now) =>
      q.setEnabled(tx, point.id, partIdx, enabled, now),
    );
  }

  async setFields(viewer: Viewer, body: Record<string, unknown>): Promise<WebsiteWriteResult> {
    const point = await this.controlled(viewer, String(body['xpointid'] ?? ''));
    const partIdx = partIndex(body['part_idx']);
    const given = body['fields'];
    if (!Array.isArray(given))
      throw new AppError('invalidField', {
        field: 'fields',
        reason: 'must be a list of {fieldname, fieldval}.',
      });
    const fields: WebsiteFieldChange[] = given.map((item, i) => {
      const entry = (item ?? {}) as Record<string, unknown>;
      if (typeof entry['fieldname'] !== 'string' || typeof (entry['fieldval'] ?? '') !== 'string')
        throw new AppError('invalidField', {
          field: `fields.${i}`,
          reason: 'must be {fieldname, fieldval} with text in both.',
        });
      return { fieldname: entry['fieldname'], fieldval: String(entry['fieldval'] ?? '') };
    });
    checkFields(fields);
    const set: Partial<Record<WebsiteField, string | null>> = {};
    for (const { fieldname, fieldval } of fields) {
      const text = normaliseText(fieldval);
      set[fieldname as WebsiteField] = text === '' ? null : text;
    }
    return this.write(point.id, partIdx, body['version'], (tx, now) =>
      q.setFields(tx, point.id, partIdx, set, now),
    );
  }

  async deletePicture(viewer: Viewer, body: Record<string, unknown>): Promise<WebsiteWriteResult> {
    const point = await this.controlled(viewer, String(body['xpointid'] ?? ''));
    const partIdx = partIndex(body['part_idx']);
    const picIdx = pictureIndex(body['pic_idx']);
    return this.write(point.id, partIdx, body['version'], async (tx) => {
      if (!(await q.deletePicture(tx, point.id, partIdx, picIdx)))
        throw new AppError('websitePictureNotFound', { part: partIdx, pic: picIdx });
    });
  }

  async reorderPictures(viewer: Viewer, body: Record<string, unknown>): Promise<WebsiteWriteResult> {
    const point = await this.controlled(viewer, String(body['xpointid'] ?? ''));
    const partIdx = partIndex(body['part_idx']);
    const order = body['order'];
    if (!Array.isArray(order) || !order.every((n) => isPictureIndex(n)))
      throw new AppError('websiteReorderInvalid', { reason: 'must be a list of picture indexes (1 to 10).' });
    const current = await q.sitePart(this.store.db, point.id, partIdx);
    const slots = current.pictures.map((p) => p.pic_idx).sort((a, b) => a - b);
    const given = [...(order as number[])].sort((a, b) => a - b);
    if (given.length !== slots.length || given.some((n, i) => n !== slots[i]))
      throw new AppError('websiteReorderInvalid', {
        reason: `must name each picture of the part once (it has ${slots.join(', ') || 'none'}).`,
      });
    return this.write(point.id, partIdx, body['version'], (tx) =>
      q.reorderPictures(tx, point.id, partIdx, order as number[]),
    );
  }

  /**
   * A picture received into `file` (the caller removes it): checked by its bytes, turned upright,
   * stripped of EXIF and encoded into the post pipeline's sizes (media/cover.ts), stored through the
   * media store (disk or S3) and put in its slot.
   */
  async putPicture(
    viewer: Viewer,
    fields: Record<string, string>,
    file: string,
  ): Promise<WebsiteWriteResult> {
    const { point, partIdx, picIdx } = await this.checkUpload(viewer, fields);
    const cover = await storePostCover(file, this.media);
    const variants = {
      small: cover.variants.feed,
      fallback: cover.variants.fallback,
      width: cover.width,
      height: cover.height,
    };
    return this.write(point.id, partIdx, fields['version'], (tx, now) =>
      q.putPicture(tx, point.id, partIdx, picIdx, cover.url, variants, now),
    );
  }

  /** The upload's fields, checked before a byte of its file is read. */
  async checkUpload(viewer: Viewer, fields: Record<string, string>) {
    const point = await this.controlled(viewer, fields['xpointid'] ?? '');
    const partIdx = partIndex(fields['partidx'] ?? fields['part_idx'], 'partidx');
    const picIdx = pictureIndex(fields['picidx'] ?? fields['pic_idx'], 'picidx');
    // a stale editor is told before its picture is read and encoded (the write checks again)
    const expected = expectedVersion(fields['version']);
    if (expected !== undefined && expected !== (await q.siteVersion(this.store.db, point.id)))
      throw new AppError('conflict');
    return { point, partIdx, picIdx };
  }

  /** The site as `viewer` sees it (siteView), the point read here. */
  async view(viewer: Viewer, id: string, log: WarnLog): Promise<WebsiteView> {
    const point = await this.details.pointDetails(viewer, id, Date.now(), log);
    if (!point.permissions.canHaveSites) throw new AppError('websiteNotForReports');
    return siteView(this.store, point);
  }

  /** A stored key's bytes, for the download (null when the store has no such key). */
  async mediaBytes(url: string): Promise<Buffer | null> {
    const key = url.split('/').pop() ?? '';
    if (!/^[0-9a-f]{64}\.(webp|jpg)$/.test(key)) return null;
    const object = await this.media.store.get(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async removeTemporary(file: string): Promise<void> {
    await fs.promises.rm(file, { force: true });
  }
}

/**
 * The site of a point whose details the caller has read (the full-screen page has them already): its
 * parts as written, its version, and, read-only through the other slices' own queries, what the parts
 * the owner left empty fill themselves with (hours, next events, latest posts, best reviews).
 */
export async function siteView(store: Store, point: PointDetails): Promise<WebsiteView> {
  const now = Date.now();
  const [parts, version, auto] = await Promise.all([
    q.siteParts(store.db, point.id),
    q.siteVersion(store.db, point.id),
    autoContent(store, point, now),
  ]);
  return {
    xpointid: point.id,
    title: point.title,
    version,
    editable: point.permissions.controllable,
    parts,
    auto,
    time_zone_name: point.time_zone_name ?? null,
  };
}

async function autoContent(store: Store, point: PointDetails, now: number): Promise<WebsiteAutoContent> {
  const [posts, reviews] = await Promise.all([
    pointPosts(store, point.id, now, null, { offset: 0, limit: AUTO_POSTS }),
    reviewsPage(store.db, point.id, 1, REVIEWS_READ),
  ]);
  const events = [...point.events.current, ...point.events.upcoming, ...point.events.later]
    .slice(0, AUTO_EVENTS)
    .map((e) => ({ title: e.title, start_date: e.start_date, url: e.url }));
  return {
    description: point.description?.trim() || null,
    hours: point.opening_hours?.opening_hours_string ?? null,
    events,
    posts: posts.rows.map((row) => ({
      title: row.title,
      description: row.description.length > 240 ? `${row.description.slice(0, 239)}…` : row.description,
      url: postLinkOf(row.id),
      image: feedImage(row.image_variants) ?? row.image_url,
    })),
    reviews: reviews
      .slice(0, REVIEWS_READ)
      .filter((r) => (r.text ?? '').trim() !== '')
      .sort((a, b) => Number(b.stars) - Number(a.stars) || Number(b.created_at) - Number(a.created_at))
      .slice(0, AUTO_REVIEWS)
      .map((r) => ({
        stars: Number(r.stars),
        text: String(r.text ?? ''),
        author: r.author_fullname || r.author_username,
      })),
  };
}

/** The feed-sized variant of a post's cover (its image_variants JSON), if it has one. */
function feedImage(variants: string | null): string | null {
  if (!variants) return null;
  try {
    const parsed = JSON.parse(variants) as { feed?: unknown };
    return typeof parsed.feed === 'string' ? parsed.feed : null;
  } catch {
    return null;
  }
}
