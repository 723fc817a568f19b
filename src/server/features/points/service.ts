import {
  ACCOUNT_ONLY_SUPERTYPES,
  MYPOINTS_DEFAULT_PAGESIZE,
  MYPOINTS_MAX_PAGESIZE,
  pickupIssue,
  supertypeFieldIssue,
  typeIssue,
  type CreatePointRequest,
  type DuplicatesRequest,
  type DuplicateCandidate,
  type EditablePoint,
  type MyPointsResponse,
  type PointIdRequest,
  isPositionedSlot,
  pointMediaFormFieldsSchema,
  type PointMediaFormFields,
  type PointMediaRequest,
  type PointMediaResponse,
  type PointWriteResponse,
  type UpdatePointRequest,
} from '../../../shared/api/points';
import { parsePagingValue } from '../../../shared/api/profiles';
import { parseContract } from '../../../shared/api/contract';
import { throwIssue } from '../../../shared/api/writes';
import { eventLink, pointLink } from '../../../shared/address';
import { isValidId } from '../../../shared/domain/ids';
import { POINT_SUPERTYPES } from '../../../shared/domain/supertypes';
import { AppError } from '../../../shared/errors';
import { type Viewer } from '../../../shared/permissions';
import {
  DUPLICATE_RADIUS_M,
  MAX_HEALTH_PHOTOS,
  MAX_SCREENSHOTS,
  distanceM,
  similarNames,
  type OpeningHoursWarning,
} from '../../../shared/validation/points';
import { requireViewer } from '../../auth/hook';
import type { MediaPlace } from '../../media/store';
import { FILE_FIELD, type MultipartUpload } from '../../media/upload';
import type { PointUpdate } from '../../store/schema';
import type { Store } from '../../store/store';
import { authorize, controlledPoint, subjectOf } from './access';
import { checkedOpeningHours, openingHoursWarnings } from './hours';
import { assetOf, storeImage, storeVideo, type MediaSource } from './media';
import { composeAddress, coordinatesText, placeOf, type AddressParts } from './place';
import * as q from './queries';
import { declineRequests } from './requests';
import { columnsOf, contactRows, editableOf, newId } from './rows';

/**
 * Create, edit, delete, claim, consult and media of points (issue 8; spec §3, §5, §6). Each public
 * method parses its input with the shared contract, then asks one access question (who may do
 * this), then does the work; events are EventService's (features/events).
 */
export class PointService {
  constructor(
    private readonly store: Store,
    private readonly options: { media: MediaPlace },
  ) {}

  /** Same or similar names within 100 m (issue 8), nearest first. Anyone may ask: it only reads. */
  async duplicates({ title, lat, lon }: DuplicatesRequest): Promise<DuplicateCandidate[]> {
    return this.findDuplicates(title, lat, lon);
  }

  /**
   * Adds a point. Anyone may (spec §1, §6); a signed-in creator becomes its owner, a visitor's point is
   * unowned and so claimable. Help requests need an account. Unless `confirmNotDuplicate`, similar
   * names within 100 m are returned instead and nothing is written.
   */
  async create(
    viewer: Viewer,
    input: CreatePointRequest,
  ): Promise<{ created: PointWriteResponse } | { duplicates: DuplicateCandidate[] }> {
    if ((ACCOUNT_ONLY_SUPERTYPES as readonly string[]).includes(input.supertype) && !viewer)
      throw new AppError('helpRequestNeedsAccount');
    if (!input.confirmNotDuplicate) {
      const candidates = await this.findDuplicates(input.title, input.lat, input.lon);
      if (candidates.length > 0) return { duplicates: candidates };
    }
    return { created: await this.insert(viewer, input) };
  }

  /** GET /v1/xpoint/{id}/edit: every editable field, for the edit and copy-to-new forms. */
  async editable(viewer: Viewer, id: string): Promise<EditablePoint> {
    if (!isValidId(id)) throw new AppError('invalidParam');
    const point = await controlledPoint(this.store, viewer, id);
    const [contacts, screenshots, healthPhotos] = await Promise.all([
      q.pointContacts(this.store, id),
      q.pointScreenshots(this.store, id),
      q.pointHealthPhotos(this.store, id),
    ]);
    return editableOf(point, contacts, screenshots, healthPhotos);
  }

  /**
   * Edits a point: owner, consultant or admin (spec §5). `version` must be the one the editor loaded;
   * when someone saved in between, 409 `conflict` and nothing is written.
   */
  async update(viewer: Viewer, input: UpdatePointRequest): Promise<PointWriteResponse> {
    const point = await controlledPoint(this.store, viewer, input.id);
    if (input.supertype !== undefined && input.supertype !== point.supertype)
      throw new AppError('supertypeChange');
    // whether others may consult is the owner's (or an admin's) choice, never the consultant's own
    if (input.allow_consulting !== undefined)
      authorize(viewer, 'setAllowConsulting', subjectOf(point), { field: 'allow_consulting' });
    if (input.type !== undefined) throwIssue(typeIssue(point.supertype, input.type));
    throwIssue(supertypeFieldIssue(point.supertype, input));
    if (input.version !== point.version) throw new AppError('conflict');
    const written = await this.write(point, input);
    // consulting turned off: nobody waits for an answer that cannot come
    if (input.allow_consulting === false) await declineRequests(this.store, point.id, Date.now());
    return written;
  }

  /** Deletes a point (and, by the store's cascade, its events, contacts and screenshots). */
  async remove(viewer: Viewer, { id }: PointIdRequest): Promise<{ ok: true; id: string }> {
    // the owner's and admins' only: a consultant never deletes (issue 16)
    await controlledPoint(this.store, viewer, id, 'delete');
    if (!(await q.deletePoint(this.store, id))) throw new AppError('pointNotFound', { id });
    return { ok: true, id };
  }

  /**
   * One media file of a point (spec §3: cover image or video, logo, up to 14 screenshots) sent as
   * JSON, by a controller, at the version they loaded: an image as a data URL, or null data to remove
   * the slot's file. A video only comes as multipart (mediaUpload).
   */
  async media(viewer: Viewer, input: PointMediaRequest): Promise<PointMediaResponse> {
    const user = requireViewer(viewer);
    if (input.slot === 'cover_video' && input.data !== null) throw new AppError('videoNeedsMultipart');
    return this.setMedia(user, input, input.data);
  }

  /**
   * The same as multipart/form-data: the fields are parsed and who controls the point is checked
   * before a byte of the file is read; the file is then streamed into place (media.ts).
   */
  async mediaUpload(viewer: Viewer, upload: MultipartUpload): Promise<PointMediaResponse> {
    const user = requireViewer(viewer);
    const input = parseContract(pointMediaFormFieldsSchema, upload.fields);
    if (upload.file === null)
      throw new AppError('invalidField', { field: FILE_FIELD, reason: 'is required.' });
    return this.setMedia(user, input, upload.file, upload.finish);
  }

  private async setMedia(
    user: NonNullable<Viewer>,
    input: PointMediaFormFields,
    source: MediaSource | null,
    bodyRead: () => Promise<void> = async () => {},
  ): Promise<PointMediaResponse> {
    const point = await controlledPoint(this.store, user, input.id, 'media');
    if (input.version !== point.version) throw new AppError('conflict');
    const positioned = isPositionedSlot(input.slot) ? await this.mediaPosition(point.id, input) : null;
    const stored =
      source === null
        ? null
        : input.slot === 'cover_video'
          ? await storeVideo(source, this.options.media)
          : await storeImage(source, input.slot, this.options.media);
    await bodyRead();
    const url = stored?.url ?? null;
    const version = await q.setPointMedia(this.store, {
      id: point.id,
      version: input.version,
      column: SLOT_COLUMNS[input.slot],
      positioned,
      url,
      asset: assetOf(stored),
      ownerUserId: user.id,
      now: Date.now(),
    });
    if (version === null) throw new AppError('conflict');
    return { id: point.id, slot: input.slot, position: positioned?.position ?? null, url, version };
  }

  private async findDuplicates(title: string, lat: number, lon: number): Promise<DuplicateCandidate[]> {
    const near = await q.pointsNear(this.store, lat, lon, DUPLICATE_RADIUS_M);
    return near
      .map((p) => ({ ...p, distance_m: Math.round(distanceM(lat, lon, p.lat, p.lon)) }))
      .filter((p) => p.distance_m <= DUPLICATE_RADIUS_M && similarNames(title, p.title))
      .sort((a, b) => a.distance_m - b.distance_m || a.id.localeCompare(b.id))
      .slice(0, 10)
      .map((p) => ({
        id: p.id,
        title: p.title,
        supertype: p.supertype,
        type: p.type,
        url: pointLink(p.id, p.supertype),
        distance_m: p.distance_m,
      }));
  }

  private async insert(viewer: Viewer, input: CreatePointRequest): Promise<PointWriteResponse> {
    const place = await placeOf(this.store, input.lat, input.lon, input.city ?? null);
    const hours = input.opening_hours
      ? checkedOpeningHours(input.opening_hours, input.lat, input.lon, place)
      : null;
    const now = Date.now();
    const id = newId();
    const fullAddress =
      input.address ??
      composeAddress({
        street: input.street ?? null,
        city: input.city ?? null,
        region: input.region ?? null,
        postalcode: input.postalcode ?? null,
        country: input.country ?? null,
      }) ??
      coordinatesText(input.lat, input.lon);
    await q.insertPoint(
      this.store,
      {
        id,
        supertype: input.supertype,
        title: input.title,
        type: input.type,
        has_app: 0,
        owner_userid: viewer?.id ?? null,
        consultant_userid: null,
        allow_consulting: 1,
        rating_count: 0,
        health_status: 0,
        stats_total: 0,
        stats_prev_month: 0,
        stats_this_month: 0,
        stats_today: 0,
        beamtype: 0,
        is_promo: 0,
        meonmap_enabled: 0,
        ...columnsOf(input),
        lat: input.lat,
        lon: input.lon,
        full_address: fullAddress,
        city_id: place.city_id,
        time_zone_name: place.time_zone_name,
        opening_hours: hours?.prettified ?? null,
        created_at: now,
        updated_at: now,
      },
      contactRows(input.contacts),
    );
    return {
      id,
      supertype: input.supertype,
      url: pointLink(id, input.supertype),
      version: 1,
      openingHoursWarnings: hours?.warnings ?? [],
    };
  }

  /** The update's writes: the given columns, and the address, place and opening hours that follow them. */
  private async write(point: q.PointForWrite, input: UpdatePointRequest): Promise<PointWriteResponse> {
    const set: PointUpdate = columnsOf(input);
    const lat = input.lat ?? point.lat;
    const lon = input.lon ?? point.lon;
    const oldParts: AddressParts = {
      street: point.street,
      city: point.city_name,
      region: point.region,
      postalcode: point.postalcode,
      country: point.country,
    };
    const parts: AddressParts = {
      street: input.street !== undefined ? input.street : oldParts.street,
      city: input.city !== undefined ? input.city : oldParts.city,
      region: input.region !== undefined ? input.region : oldParts.region,
      postalcode: input.postalcode !== undefined ? input.postalcode : oldParts.postalcode,
      country: input.country !== undefined ? input.country : oldParts.country,
    };
    const moved = lat !== point.lat || lon !== point.lon;
    const partsChanged = (Object.keys(parts) as (keyof AddressParts)[]).some((k) => parts[k] !== oldParts[k]);
    if (input.address !== undefined) {
      set.full_address = input.address ?? composeAddress(parts) ?? coordinatesText(lat, lon);
    } else if (moved || partsChanged) {
      // a composed or 'lat,lon' address follows its parts; one the person typed stays as typed
      const derived = [composeAddress(oldParts), coordinatesText(point.lat, point.lon)];
      if (point.full_address === null || derived.includes(point.full_address))
        set.full_address = composeAddress(parts) ?? coordinatesText(lat, lon);
    }

    let place = { iso2: point.city_iso2 ?? null, state: point.city_state ?? null };
    if (moved || input.city !== undefined) {
      const found = await placeOf(this.store, lat, lon, parts.city);
      set.city_id = found.city_id;
      set.time_zone_name = found.time_zone_name;
      place = found;
    }
    const pickupDestination =
      input.pickup_destination !== undefined ? input.pickup_destination : point.pickup_destination;
    const pickupTime = input.pickup_date_time !== undefined ? input.pickup_date_time : point.pickup_date_time;
    throwIssue(pickupIssue(pickupDestination, pickupTime));

    let warnings: OpeningHoursWarning[];
    if (input.opening_hours !== undefined) {
      const check = input.opening_hours ? checkedOpeningHours(input.opening_hours, lat, lon, place) : null;
      set.opening_hours = check?.prettified ?? null;
      warnings = check?.warnings ?? [];
    } else {
      warnings = openingHoursWarnings(point.opening_hours, lat, lon, place);
    }

    set.updated_at = Date.now();
    const version = await q.updatePointIfVersion(
      this.store,
      point.id,
      input.version,
      set,
      contactRows(input.contacts),
    );
    if (version === null) throw new AppError('conflict');
    return {
      id: point.id,
      supertype: point.supertype,
      url: pointLink(point.id, point.supertype),
      version,
      openingHoursWarnings: warnings,
    };
  }

  /**
   * The screenshot's or health photo's place asked for, or the first free one; a point has at most
   * 14 screenshots (spec §3) and 20 health photos (migration 0004).
   */
  private async mediaPosition(id: string, input: PointMediaFormFields): Promise<q.PositionedMedia> {
    const health = input.slot === 'health';
    const table = health ? 'point_health_photos' : 'point_screenshots';
    if (input.position !== undefined) return { table, position: input.position };
    const most = health ? MAX_HEALTH_PHOTOS : MAX_SCREENSHOTS;
    const existing = health ? q.pointHealthPhotos(this.store, id) : q.pointScreenshots(this.store, id);
    const taken = new Set((await existing).map((s) => s.position));
    for (let p = 1; p <= most; p++) if (!taken.has(p)) return { table, position: p };
    const what = health ? 'health photos' : 'screenshots';
    throw new AppError('mediaSlotInvalid', {
      field: 'position',
      reason: `a point has at most ${most} ${what}; replace or remove one.`,
    });
  }
}

/** The points column each media slot fills; screenshots have a table of their own. */
const SLOT_COLUMNS = {
  cover_image: 'url_cover_image',
  cover_video: 'url_cover_video',
  logo: 'url_icon_or_logo',
  screenshot: null,
  health: null,
} as const satisfies Record<PointMediaRequest['slot'], q.PointMediaColumn | null>;

/** The query of GET /v1/account/mypoints: lenient paging, as profiles have; an unknown supertype is 7002. */
export interface MyPointsQuery {
  supertype: string | undefined;
  pagenumber: number;
  pagesize: number;
}

export function parseMyPointsQuery(query: Record<string, unknown>): MyPointsQuery {
  const raw = typeof query['supertype'] === 'string' ? query['supertype'].trim().toLowerCase() : '';
  const supertype =
    raw === 'event' || (POINT_SUPERTYPES as readonly string[]).includes(raw) ? raw : undefined;
  if (raw && raw !== 'all' && raw !== 'none' && !supertype)
    throw new AppError('unknownSupertype', {
      value: raw,
      allowed: [...POINT_SUPERTYPES, 'event'].join(', '),
    });
  return {
    supertype,
    pagenumber: parsePagingValue(query['pagenumber'], 1, 100_000),
    pagesize: parsePagingValue(query['pagesize'], MYPOINTS_DEFAULT_PAGESIZE, MYPOINTS_MAX_PAGESIZE),
  };
}

/** GET /v1/account/mypoints: the signed-in user's points (owned or consulted) and events. */
export async function listMyPoints(
  store: Store,
  viewer: Viewer,
  { supertype, pagenumber, pagesize }: MyPointsQuery,
): Promise<MyPointsResponse> {
  const user = requireViewer(viewer);
  const { rows, total } = await q.myPoints(store, user.id, {
    ...(supertype ? { supertype } : {}),
    offset: (pagenumber - 1) * pagesize,
    limit: pagesize,
  });
  return {
    items: rows.map((r) => ({
      ...r,
      url: r.kind === 'event' ? eventLink(r.id) : pointLink(r.id, r.supertype),
    })),
    total,
    pagenumber,
    pagesize,
  };
}
