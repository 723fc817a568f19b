import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  ACCOUNT_ONLY_SUPERTYPES,
  MYPOINTS_DEFAULT_PAGESIZE,
  MYPOINTS_MAX_PAGESIZE,
  claimRequestSchema,
  createPointRequestSchema,
  duplicatesRequestSchema,
  pickupIssue,
  pointIdRequestSchema,
  pointMediaRequestSchema,
  supertypeFieldIssue,
  typeIssue,
  updatePointRequestSchema,
  type ContactInput,
  type DuplicateCandidate,
  type EditablePoint,
  type MyPointsResponse,
  type PointFields,
  type PointMediaResponse,
  type PointPeopleResponse,
  type PointWriteResponse,
} from '../../../shared/api/points';
import {
  createEventRequestSchema,
  eventDatesIssue,
  eventMediaRequestSchema,
  eventTypeIssue,
  updateEventRequestSchema,
  type EditableEvent,
  type EventMediaResponse,
  type EventWriteResponse,
} from '../../../shared/api/events';
import { parsePointRequest, type DomainIssue } from '../../../shared/api/writes';
import { parsePagingValue } from '../../../shared/api/profiles';
import { eventLink, pointLink } from '../../../shared/address';
import { isValidId } from '../../../shared/domain/ids';
import { POINT_SUPERTYPES } from '../../../shared/domain/supertypes';
import { AppError } from '../../../shared/errors';
import {
  canControlEvent,
  canControlPoint,
  isAdmin,
  isPointConsultant,
  isPointOwner,
  showClaimText,
  showConsultant,
  type PointSubject,
  type Viewer,
} from '../../../shared/permissions';
import {
  DUPLICATE_RADIUS_M,
  MAX_SCREENSHOTS,
  checkOpeningHours,
  distanceM,
  similarNames,
  type OpeningHoursWarning,
} from '../../../shared/validation/points';
import { requireViewer } from '../../auth/hook';
import type { PointUpdate } from '../../store/schema';
import type { Store } from '../../store/store';
import { closestCities, foldName } from '../cities/queries';
import { storeImage, storeVideo } from './media';
import * as q from './queries';

const require = createRequire(import.meta.url);
const tzlookup = require('@photostructure/tz-lookup') as (lat: number, lon: number) => string;

/** A typed city is matched to a known one this far away at most; the nearest one only this far. */
const CITY_NAME_MATCH_M = 100_000;
const CITY_NEAREST_M = 50_000;
/** Help requests and incidents are reports: no consultant (spec §5, §6). */
const REPORT_SUPERTYPES = new Set(['helprequest', 'incident']);

/** A new id: 12 characters of letters, digits, '_' and '-' (spec §2), never starting with a symbol. */
export function newId(): string {
  for (;;) {
    const id = randomBytes(9).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

function fail(issue: DomainIssue | null): void {
  if (issue) throw new AppError(issue.error, issue.params);
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** 'lat,lon' with six decimals: the spec's full_address when a point has no street address (§3, §9). */
export function coordinatesText(lat: number, lon: number): string {
  return `${round6(lat)},${round6(lon)}`;
}

interface AddressParts {
  street: string | null;
  city: string | null;
  region: string | null;
  postalcode: string | null;
  country: string | null;
}

/** 'street, postalcode city, region, country' from what is there, or null when nothing is. */
export function composeAddress(parts: AddressParts): string | null {
  const locality = [parts.postalcode, parts.city].filter(Boolean).join(' ');
  const line = [parts.street, locality, parts.region, parts.country].filter(Boolean).join(', ');
  return line || null;
}

/** Where a point is: the known city (nearest, or the one named like the typed city) and its time zone. */
interface Place {
  city_id: number | null;
  iso2: string | null;
  state: string | null;
  time_zone_name: string | null;
}

async function placeOf(store: Store, lat: number, lon: number, typedCity: string | null): Promise<Place> {
  const cities = await closestCities(store.db, lat, lon, 5);
  const typed = typedCity ? foldName(typedCity) : '';
  const named = typed
    ? cities.find((c) => foldName(c.city) === typed && c.distance_m <= CITY_NAME_MATCH_M)
    : undefined;
  const nearest = cities[0] && cities[0].distance_m <= CITY_NEAREST_M ? cities[0] : undefined;
  const city = named ?? nearest;
  let timeZone: string | null = null;
  try {
    timeZone = tzlookup(lat, lon);
  } catch {
    // coordinates the lookup cannot place: no zone, opening hours are then read in the viewer's
  }
  return {
    city_id: city?.id ?? null,
    iso2: city?.iso2 ?? null,
    state: city?.state ?? null,
    time_zone_name: timeZone,
  };
}

/** Checks an opening_hours value (spec §5) at the point's place; throws invalidOpeningHours. */
function openingHours(
  value: string,
  lat: number,
  lon: number,
  place: { iso2: string | null; state: string | null },
) {
  const check = checkOpeningHours(value, { lat, lon, countryCode: place.iso2, state: place.state });
  if (!check.ok) throw new AppError('invalidOpeningHours', { reason: check.error });
  return check;
}

function warningsFor(
  value: string | null,
  lat: number,
  lon: number,
  place: { iso2: string | null; state: string | null },
) {
  if (!value) return [];
  const check = checkOpeningHours(value, { lat, lon, countryCode: place.iso2, state: place.state });
  return check.ok ? check.warnings : [];
}

/** The simple columns of the editable fields that are present in `fields` (absent ones stay as they are). */
function columnsOf(fields: PointFields): PointUpdate {
  const set: PointUpdate = {
    title: fields.title,
    type: fields.type,
    subtype: fields.subtype,
    tagline: fields.tagline,
    description: fields.description,
    lat: fields.lat,
    lon: fields.lon,
    street: fields.street,
    city_name: fields.city,
    region: fields.region,
    postalcode: fields.postalcode,
    country: fields.country,
    link_email: fields.link_email,
    link_phone: fields.link_phone,
    link_website: fields.link_website,
    link_facebook: fields.link_facebook,
    allow_consulting: flag(fields.allow_consulting),
    meonmap_enabled: flag(fields.meonmap_enabled),
    xpoint_service: fields.xpointService,
    owner_callchat_priceperminute: fields.owner_callchat_priceperminute,
    pickup_destination: fields.pickup_destination,
    pickup_date_time: fields.pickup_date_time,
    delivery_lat: fields.delivery_lat,
    delivery_lng: fields.delivery_lng,
  };
  const help = fields.helprequestdata;
  if (help) {
    Object.assign(set, {
      help_taskduration_minutes: help.taskduration_minutes,
      help_taskbudget: help.taskbudget,
      help_taskstart: help.taskstart,
      help_canacceptjob: flag(help.canacceptjob),
      help_canquote: flag(help.canquote),
    });
  }
  for (const key of Object.keys(set) as (keyof PointUpdate)[]) if (set[key] === undefined) delete set[key];
  return set;
}

function contactRows(contacts: ContactInput[] | undefined): q.ContactRow[] | undefined {
  return contacts?.map((c) => ({
    roleid: c.roleid,
    roleoverride: c.roleid === 'CUST' ? (c.roleoverride ?? null) : null,
    contact_firstname: c.contact_firstname ?? null,
    contact_lastname: c.contact_lastname ?? null,
    contact_username: c.contact_username ?? null,
  }));
}

function subjectOf(point: q.PointForWrite): PointSubject {
  return {
    supertype: point.supertype,
    owner_username: point.owner_username ?? null,
    consultant_username: point.consultant_username ?? null,
    allow_consulting: point.allow_consulting,
  };
}

/** Create, edit, delete, claim, consult and media of points (issue 8; spec §3, §5, §6). */
export class PointWriteService {
  constructor(
    private readonly store: Store,
    private readonly options: { mediaDir: string },
  ) {}

  /** Same or similar names within 100 m (issue 8), nearest first. */
  async duplicates(body: unknown): Promise<DuplicateCandidate[]> {
    const { title, lat, lon } = parsePointRequest(duplicatesRequestSchema, body);
    return this.findDuplicates(title, lat, lon);
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

  /**
   * Adds a point. Anyone may (spec §1, §6); a signed-in creator becomes its owner, a visitor's point is
   * unowned and so claimable. Help requests need an account. Unless `confirmNotDuplicate`, similar
   * names within 100 m are returned instead and nothing is written.
   */
  async create(
    viewer: Viewer,
    body: unknown,
  ): Promise<{ created: PointWriteResponse } | { duplicates: DuplicateCandidate[] }> {
    const input = parsePointRequest(createPointRequestSchema, body);
    if ((ACCOUNT_ONLY_SUPERTYPES as readonly string[]).includes(input.supertype) && !viewer)
      throw new AppError('helpRequestNeedsAccount');
    if (!input.confirmNotDuplicate) {
      const candidates = await this.findDuplicates(input.title, input.lat, input.lon);
      if (candidates.length > 0) return { duplicates: candidates };
    }
    const place = await placeOf(this.store, input.lat, input.lon, input.city ?? null);
    const hours = input.opening_hours ? openingHours(input.opening_hours, input.lat, input.lon, place) : null;
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
      created: {
        id,
        supertype: input.supertype,
        url: pointLink(id, input.supertype),
        version: 1,
        openingHoursWarnings: hours?.warnings ?? [],
      },
    };
  }

  private async pointOr404(id: string): Promise<q.PointForWrite> {
    const point = await q.findPointForWrite(this.store, id);
    if (!point) throw new AppError('pointNotFound', { id });
    return point;
  }

  /** The point for a controller (owner, consultant, admin: spec §5), or 401/403/404. */
  private async controlledPoint(viewer: Viewer, id: string): Promise<q.PointForWrite> {
    requireViewer(viewer);
    const point = await this.pointOr404(id);
    if (!canControlPoint(viewer, subjectOf(point))) throw new AppError('forbidden');
    return point;
  }

  /** GET /v1/xpoint/{id}/edit: every editable field, for the edit and copy-to-new forms. */
  async editable(viewer: Viewer, id: string): Promise<EditablePoint> {
    if (!isValidId(id)) throw new AppError('invalidXpointId');
    const point = await this.controlledPoint(viewer, id);
    const [contacts, screenshots] = await Promise.all([
      q.pointContacts(this.store, id),
      q.pointScreenshots(this.store, id),
    ]);
    return {
      id: point.id,
      supertype: point.supertype,
      type: point.type,
      subtype: point.subtype,
      title: point.title,
      tagline: point.tagline,
      description: point.description,
      lat: point.lat,
      lon: point.lon,
      address: point.full_address,
      street: point.street,
      city: point.city_name ?? point.known_city ?? null,
      region: point.region,
      postalcode: point.postalcode,
      country: point.country,
      link_email: point.link_email,
      link_phone: point.link_phone,
      link_website: point.link_website,
      link_facebook: point.link_facebook,
      contacts,
      opening_hours: point.opening_hours,
      time_zone_name: point.time_zone_name,
      allow_consulting: point.allow_consulting === 1,
      meonmap_enabled: Number(point.meonmap_enabled) === 1,
      xpointService: point.xpoint_service,
      owner_callchat_priceperminute: point.owner_callchat_priceperminute,
      helprequestdata: {
        taskduration_minutes: point.help_taskduration_minutes,
        taskbudget: point.help_taskbudget,
        taskstart: point.help_taskstart === null ? null : Number(point.help_taskstart),
        canacceptjob: Number(point.help_canacceptjob) === 1,
        canquote: Number(point.help_canquote) === 1,
      },
      pickup_destination: point.pickup_destination,
      pickup_date_time: point.pickup_date_time === null ? null : Number(point.pickup_date_time),
      delivery_lat: point.delivery_lat,
      delivery_lng: point.delivery_lng,
      url_icon_or_logo: point.url_icon_or_logo,
      url_cover_image: point.url_cover_image,
      url_cover_video: point.url_cover_video,
      screenshots,
      owner_username: point.owner_username ?? null,
      consultant_username: point.consultant_username ?? null,
      version: point.version,
      url: pointLink(point.id, point.supertype),
    };
  }

  /**
   * Edits a point: owner, consultant or admin (spec §5). `version` must be the one the editor loaded;
   * when someone saved in between, 409 `conflict` and nothing is written.
   */
  async update(viewer: Viewer, body: unknown): Promise<PointWriteResponse> {
    const input = parsePointRequest(updatePointRequestSchema, body);
    const point = await this.controlledPoint(viewer, input.id);
    if (input.supertype !== undefined && input.supertype !== point.supertype)
      throw new AppError('supertypeChange');
    if (input.allow_consulting !== undefined && !isPointOwner(viewer, subjectOf(point)) && !isAdmin(viewer))
      throw new AppError('ownerOnlySetting', { field: 'allow_consulting' });
    if (input.type !== undefined) fail(typeIssue(point.supertype, input.type));
    fail(supertypeFieldIssue(point.supertype, input));
    if (input.version !== point.version) throw new AppError('conflict');

    const set = columnsOf(input);
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
    fail(pickupIssue(pickupDestination, pickupTime));

    let openingHoursValue = point.opening_hours;
    let warnings: OpeningHoursWarning[];
    if (input.opening_hours !== undefined) {
      const check = input.opening_hours ? openingHours(input.opening_hours, lat, lon, place) : null;
      openingHoursValue = check?.prettified ?? null;
      set.opening_hours = openingHoursValue;
      warnings = check?.warnings ?? [];
    } else {
      warnings = warningsFor(openingHoursValue, lat, lon, place);
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

  /** Deletes a point (and, by the store's cascade, its events, contacts and screenshots). */
  async remove(viewer: Viewer, body: unknown): Promise<{ ok: true; id: string }> {
    const { id } = parsePointRequest(pointIdRequestSchema, body);
    await this.controlledPoint(viewer, id);
    if (!(await q.deletePoint(this.store, id))) throw new AppError('pointNotFound', { id });
    return { ok: true, id };
  }

  private async people(id: string): Promise<PointPeopleResponse> {
    const point = await this.pointOr404(id);
    return {
      id,
      url: pointLink(id, point.supertype),
      owner_username: point.owner_username ?? null,
      consultant_username: point.consultant_username ?? null,
      version: point.version,
    };
  }

  /** Spec §6: an unowned point can be claimed by a signed-in user; claim text only for experiences and rentals. */
  async claim(viewer: Viewer, body: unknown): Promise<PointPeopleResponse> {
    const user = requireViewer(viewer);
    const input = parsePointRequest(claimRequestSchema, body);
    const point = await this.pointOr404(input.id);
    if (point.owner_userid) throw new AppError('pointAlreadyOwned');
    if (input.text && !showClaimText(subjectOf(point))) throw new AppError('claimTextNotAllowed');
    if (!(await q.claimPoint(this.store, point.id, user.id, input.text ?? null, Date.now())))
      throw new AppError('pointAlreadyOwned');
    return this.people(point.id);
  }

  /**
   * Spec §5, §6: points with no consultant offer 'become consultant', unless they are reports, or the
   * owner does not allow consulting. Asking again as the consultant changes nothing and answers 200.
   */
  async becomeConsultant(viewer: Viewer, body: unknown): Promise<PointPeopleResponse> {
    const user = requireViewer(viewer);
    const { id } = parsePointRequest(pointIdRequestSchema, body);
    const point = await this.pointOr404(id);
    const subject = subjectOf(point);
    if (REPORT_SUPERTYPES.has(point.supertype)) throw new AppError('reportHasNoConsultant');
    if (isPointConsultant(viewer, subject)) return this.people(id);
    if (isPointOwner(viewer, subject)) throw new AppError('ownerCannotConsult');
    if (point.consultant_userid) throw new AppError('pointHasConsultant');
    if (!showConsultant(subject)) throw new AppError('consultingNotAllowed');
    if (!(await q.setConsultant(this.store, id, user.id, Date.now())))
      throw new AppError('pointHasConsultant');
    return this.people(id);
  }

  /** Spec §6: the consultant may stop consulting; admins, who control every point, may end it too. */
  async clearConsultant(viewer: Viewer, body: unknown): Promise<PointPeopleResponse> {
    requireViewer(viewer);
    const { id } = parsePointRequest(pointIdRequestSchema, body);
    const point = await this.pointOr404(id);
    if (!point.consultant_userid || (!isPointConsultant(viewer, subjectOf(point)) && !isAdmin(viewer)))
      throw new AppError('notConsultant');
    await q.clearConsultant(this.store, id, point.consultant_userid, Date.now());
    return this.people(id);
  }

  /**
   * One media file of a point (spec §3: cover image or video, logo, up to 14 screenshots), by a
   * controller, at the version they loaded; null data removes the file from its slot.
   */
  async media(viewer: Viewer, body: unknown): Promise<PointMediaResponse> {
    const user = requireViewer(viewer);
    const input = parsePointRequest(pointMediaRequestSchema, body);
    const point = await this.controlledPoint(viewer, input.id);
    if (input.version !== point.version) throw new AppError('conflict');

    let position: number | null = null;
    if (input.slot === 'screenshot') {
      position = input.position ?? null;
      if (position === null) {
        const taken = new Set((await q.pointScreenshots(this.store, point.id)).map((s) => s.position));
        for (let p = 1; p <= MAX_SCREENSHOTS && position === null; p++) if (!taken.has(p)) position = p;
        if (position === null)
          throw new AppError('mediaSlotInvalid', {
            field: 'position',
            reason: `a point has at most ${MAX_SCREENSHOTS} screenshots; replace or remove one.`,
          });
      }
    }
    const stored =
      input.data === null
        ? null
        : input.slot === 'cover_video'
          ? await storeVideo(input.data, this.options.mediaDir)
          : await storeImage(input.data, input.slot, this.options.mediaDir);
    const column =
      input.slot === 'cover_image'
        ? 'url_cover_image'
        : input.slot === 'cover_video'
          ? 'url_cover_video'
          : input.slot === 'logo'
            ? 'url_icon_or_logo'
            : null;
    const url = stored?.url ?? null;
    const version = await q.setPointMedia(this.store, {
      id: point.id,
      version: input.version,
      column,
      screenshotPosition: position,
      url,
      asset: stored
        ? {
            id: stored.id,
            mime: stored.mime,
            bytes: stored.bytes,
            width: stored.width,
            height: stored.height,
          }
        : null,
      ownerUserId: user.id,
      now: Date.now(),
    });
    if (version === null) throw new AppError('conflict');
    return { id: point.id, slot: input.slot, position, url, version };
  }
}

/** Create, edit and delete of events (issue 8; spec §3, §5, §6; social §5: no dates before 1901). */
export class EventWriteService {
  constructor(
    private readonly store: Store,
    private readonly options: { mediaDir: string },
  ) {}

  private async eventOr404(id: string): Promise<q.EventForWrite> {
    const event = await q.findEventForWrite(this.store, id);
    if (!event) throw new AppError('eventNotFound', { id });
    return event;
  }

  private async controlledEvent(viewer: Viewer, id: string): Promise<q.EventForWrite> {
    requireViewer(viewer);
    const event = await this.eventOr404(id);
    if (!canControlEvent(viewer, { owner_username: event.owner_username ?? null }))
      throw new AppError('forbidden');
    return event;
  }

  /**
   * Adds an event, owned by its signed-in creator (spec §6: its owner or an admin controls it, so an
   * event needs an owner). With `xpoint_id` it is a child of that point, which the creator must
   * control (spec §6: the add-as-child link is the owner's); its place defaults to the point's.
   */
  async create(viewer: Viewer, body: unknown): Promise<EventWriteResponse> {
    const user = requireViewer(viewer);
    const input = parsePointRequest(createEventRequestSchema, body);
    let lat = input.lat;
    let lon = input.lon;
    let address = input.address ?? null;
    let cityId: number | null = null;
    if (input.xpoint_id) {
      const point = await q.findPointForWrite(this.store, input.xpoint_id);
      if (!point) throw new AppError('pointNotFound', { id: input.xpoint_id });
      if (!canControlPoint(viewer, subjectOf(point))) throw new AppError('forbidden');
      if (lat === undefined || lon === undefined) {
        lat = point.lat;
        lon = point.lon;
        address ??= point.full_address;
        cityId = point.city_id;
      }
    }
    if (lat === undefined || lon === undefined) throw new AppError('eventNeedsLocation');
    if (cityId === null) cityId = (await placeOf(this.store, lat, lon, null)).city_id;
    const now = Date.now();
    const id = newId();
    const xpointId = input.xpoint_id ?? null;
    await q.insertEvent(
      this.store,
      {
        id,
        xpoint_id: xpointId,
        parent_id: null,
        owner_userid: user.id,
        title: input.title,
        cover_url: null,
        type: input.type,
        subtype: input.subtype ?? null,
        start_date: input.start_date,
        end_date: input.end_date,
        lat,
        lon,
        full_address: address ?? coordinatesText(lat, lon),
        city_id: cityId,
        admission: input.admission ?? 'free',
        admissionprice: input.admissionprice ?? null,
        website: input.website ?? null,
        description: input.description ?? null,
        marker: null,
        created_at: now,
        updated_at: now,
      },
      {
        intervals: input.event_opening_intervals_utc?.length
          ? input.event_opening_intervals_utc
          : [{ start: input.start_date, end: input.end_date }],
        tickets: input.tickets ?? [],
      },
    );
    return { id, url: eventLink(id), version: 1, xpoint_id: xpointId };
  }

  async editable(viewer: Viewer, id: string): Promise<EditableEvent> {
    if (!isValidId(id)) throw new AppError('invalidEventId');
    const event = await this.controlledEvent(viewer, id);
    const [intervals, tickets] = await Promise.all([
      q.eventIntervals(this.store, id),
      q.eventTickets(this.store, id),
    ]);
    return {
      id: event.id,
      title: event.title,
      type: event.type,
      subtype: event.subtype,
      start_date: Number(event.start_date),
      end_date: Number(event.end_date),
      event_opening_intervals_utc: intervals,
      admission: event.admission,
      admissionprice: event.admissionprice,
      tickets,
      website: event.website,
      description: event.description,
      lat: event.lat,
      lon: event.lon,
      address: event.full_address,
      xpoint_id: event.xpoint_id,
      cover_url: event.cover_url,
      owner_username: event.owner_username ?? null,
      version: event.version,
      url: eventLink(event.id),
    };
  }

  /** Edits an event: its owner or an admin (spec §5), at the version they loaded. */
  async update(viewer: Viewer, body: unknown): Promise<EventWriteResponse> {
    const input = parsePointRequest(updateEventRequestSchema, body);
    const event = await this.controlledEvent(viewer, input.id);
    if (input.type !== undefined) fail(eventTypeIssue(input.type));
    if (input.version !== event.version) throw new AppError('conflict');

    const oldStart = Number(event.start_date);
    const oldEnd = Number(event.end_date);
    const start = input.start_date ?? oldStart;
    const end = input.end_date ?? oldEnd;
    let intervals = input.event_opening_intervals_utc;
    if (!intervals && (start !== oldStart || end !== oldEnd)) {
      const current = await q.eventIntervals(this.store, event.id);
      // the default single opening follows the event's dates; openings the owner set must still fit
      const isDefault = current.length === 1 && current[0]?.start === oldStart && current[0]?.end === oldEnd;
      intervals = isDefault || current.length === 0 ? [{ start, end }] : current;
      if (!isDefault) {
        const issue = eventDatesIssue(start, end, intervals);
        if (issue && issue.field.startsWith('event_opening_intervals_utc'))
          throw new AppError('invalidField', {
            field: 'event_opening_intervals_utc',
            reason: 'the event’s openings no longer fit its new dates; send the openings too.',
          });
      }
    }
    if (intervals?.length === 0) intervals = [{ start, end }];
    fail(eventDatesIssue(start, end, intervals ?? []));
    const admission = input.admission ?? event.admission;
    const price = input.admissionprice !== undefined ? input.admissionprice : event.admissionprice;
    if (admission === 'paid' && price == null) throw new AppError('paidNeedsPrice', {});

    const set: Parameters<typeof q.updateEventIfVersion>[3] = {
      title: input.title,
      type: input.type,
      subtype: input.subtype,
      start_date: input.start_date,
      end_date: input.end_date,
      admission: input.admission,
      admissionprice: input.admissionprice,
      website: input.website,
      description: input.description,
      lat: input.lat,
      lon: input.lon,
      full_address: input.address,
      updated_at: Date.now(),
    };
    const lat = input.lat ?? event.lat;
    const lon = input.lon ?? event.lon;
    if (lat !== event.lat || lon !== event.lon) {
      set.city_id = (await placeOf(this.store, lat, lon, null)).city_id;
      if (input.address === undefined && event.full_address === coordinatesText(event.lat, event.lon))
        set.full_address = coordinatesText(lat, lon);
    }
    if (input.address === null) set.full_address = coordinatesText(lat, lon);
    for (const key of Object.keys(set) as (keyof typeof set)[]) if (set[key] === undefined) delete set[key];
    const version = await q.updateEventIfVersion(this.store, event.id, input.version, set, {
      ...(intervals ? { intervals } : {}),
      ...(input.tickets ? { tickets: input.tickets } : {}),
    });
    if (version === null) throw new AppError('conflict');
    return { id: event.id, url: eventLink(event.id), version, xpoint_id: event.xpoint_id };
  }

  /** The event's cover image (spec §3 cover_url), by its owner or an admin, at the version they loaded. */
  async cover(viewer: Viewer, body: unknown): Promise<EventMediaResponse> {
    const user = requireViewer(viewer);
    const input = parsePointRequest(eventMediaRequestSchema, body);
    const event = await this.controlledEvent(viewer, input.id);
    if (input.version !== event.version) throw new AppError('conflict');
    const stored =
      input.data === null ? null : await storeImage(input.data, 'cover_image', this.options.mediaDir);
    const version = await q.setEventCover(this.store, {
      id: event.id,
      version: input.version,
      url: stored?.url ?? null,
      asset: stored
        ? {
            id: stored.id,
            mime: stored.mime,
            bytes: stored.bytes,
            width: stored.width,
            height: stored.height,
          }
        : null,
      ownerUserId: user.id,
      now: Date.now(),
    });
    if (version === null) throw new AppError('conflict');
    return { id: event.id, cover_url: stored?.url ?? null, version };
  }

  async remove(viewer: Viewer, body: unknown): Promise<{ ok: true; id: string }> {
    const { id } = parsePointRequest(pointIdRequestSchema, body);
    await this.controlledEvent(viewer, id);
    if (!(await q.deleteEvent(this.store, id))) throw new AppError('eventNotFound', { id });
    return { ok: true, id };
  }
}

/** GET /v1/account/mypoints: the signed-in user's points (owned or consulted) and events. */
export async function listMyPoints(
  store: Store,
  viewer: Viewer,
  query: Record<string, unknown>,
): Promise<MyPointsResponse> {
  const user = requireViewer(viewer);
  const raw = typeof query['supertype'] === 'string' ? query['supertype'].trim().toLowerCase() : '';
  const supertype =
    raw === 'event' || (POINT_SUPERTYPES as readonly string[]).includes(raw) ? raw : undefined;
  if (raw && raw !== 'all' && raw !== 'none' && !supertype)
    throw new AppError('unknownSupertype', {
      value: raw,
      allowed: [...POINT_SUPERTYPES, 'event'].join(', '),
    });
  const pagenumber = parsePagingValue(query['pagenumber'], 1, 100_000);
  const pagesize = parsePagingValue(query['pagesize'], MYPOINTS_DEFAULT_PAGESIZE, MYPOINTS_MAX_PAGESIZE);
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
