import tzlookup from '@photostructure/tz-lookup';
import {
  addChildEventLink,
  becomeConsultantLink,
  claimLink,
  clearConsultantLink,
  eventCopyLink,
  eventDeleteLink,
  eventEditLink,
  eventLink,
  experienceDeleteLink,
  experienceEditLink,
  fullscreenLink,
  helpRequestCopyLink,
  inviteReviewLink,
  pointDeleteLink,
  pointEditLink,
  pointLink,
  rentalBookingLink,
  rentalDeleteLink,
  rentalEditLink,
  serviceEditLink,
} from '../../../shared/address/links';
import type { PointRouteSupertype } from '../../../shared/address/types';
import {
  POINT_PAST_EVENTS_MAX,
  type ContactView,
  type EventDetails,
  type EventSummary,
  type HealthPhotosResponse,
  type PointControls,
  type PointDetails,
} from '../../../shared/api/details';
import {
  contactRoleText,
  describeText,
  displayAddress,
  emailView,
  evaluateOpeningHours,
  eventStatus,
  formatDurationHours,
  formatPrice,
  formatRating,
  formatStat,
  isTimeZone,
  linkView,
  minutesUntilStart,
  phoneView,
  splitEvents,
  durationHours,
  ticketOptions,
} from '../../../shared/details';
import { beamTypesOf } from '../../../shared/domain/beams';
import { HealthStatus } from '../../../shared/domain/enums';
import { isValidId } from '../../../shared/domain/ids';
import { isPointSupertype } from '../../../shared/domain/supertypes';
import { AppError } from '../../../shared/errors';
import {
  eventPermissions,
  pointPermissions,
  type PointPermissions,
  type PointSubject,
  type Viewer,
} from '../../../shared/permissions';
import type { Store } from '../../store/store';
import * as q from './queries';
import { viewerPending } from '../points/requests';

/** Screenshots per point (§9). */
export const MAX_SCREENSHOTS = 14;

const HEALTH_NAMES = ['undefined', 'verificationpending', 'verified'] as const;

/** Where warnings go (the request's logger). */
export interface WarnLog {
  warn(details: object, message: string): void;
}

/**
 * The point's IANA time zone: its own time_zone_name when valid, else its city's, else looked up
 * from its coordinates (tz-lookup covers land and sea), else UTC.
 */
export function pointTimeZone(row: {
  time_zone_name: string | null;
  city_time_zone: string | null;
  lat: number;
  lon: number;
}): string {
  if (isTimeZone(row.time_zone_name)) return row.time_zone_name;
  if (isTimeZone(row.city_time_zone)) return row.city_time_zone;
  try {
    const zone = tzlookup(row.lat, row.lon);
    if (isTimeZone(zone)) return zone;
  } catch {
    // coordinates out of range: fall through
  }
  return 'UTC';
}

function parseSites(json: string | null): { icon: string; title: string; url: string }[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    const list = Array.isArray(parsed)
      ? parsed
      : parsed && typeof parsed === 'object' && Array.isArray((parsed as { data?: unknown }).data)
        ? (parsed as { data: unknown[] }).data
        : [];
    return list.flatMap((item) => {
      if (!item || typeof item !== 'object') return [];
      const { icon, title, url } = item as Record<string, unknown>;
      return typeof url === 'string'
        ? [
            {
              icon: typeof icon === 'string' ? icon : '',
              title: typeof title === 'string' ? title : url,
              url,
            },
          ]
        : [];
    });
  } catch {
    return [];
  }
}

/** The collapsed view of a description (§5): its preview and whether the toggle shows. */
function descriptionDisplay(text: string | null): { preview: string; collapsible: boolean } {
  const { preview, collapsible } = describeText(text);
  return { preview, collapsible };
}

const num = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);
const flag = (value: number | string | null | undefined): boolean => Number(value ?? 0) === 1;

/** The §6 controls as links; successUrl is the point's own address, where the panel lives. */
function pointControls(id: string, supertype: string, permissions: PointPermissions): PointControls {
  const here = pointLink(id, supertype);
  const routeSupertype: PointRouteSupertype = isPointSupertype(supertype) ? supertype : 'none';
  const edit =
    supertype === 'service'
      ? serviceEditLink(id, here)
      : supertype === 'experience'
        ? experienceEditLink(id, here)
        : supertype === 'rental'
          ? rentalEditLink(id, here)
          : pointEditLink(id, routeSupertype, here);
  const remove =
    supertype === 'experience'
      ? experienceDeleteLink(id, here)
      : supertype === 'rental'
        ? rentalDeleteLink(id, here)
        : pointDeleteLink(id, here);
  return {
    edit: permissions.canEdit ? edit : null,
    delete: permissions.canDelete ? remove : null,
    copy_to_new: permissions.canCopyToNew ? helpRequestCopyLink(id, here) : null,
    add_child_event: permissions.canAddChildEvent ? addChildEventLink(id) : null,
    invite_review: permissions.canInviteReview ? inviteReviewLink(id) : null,
    claim: permissions.showClaimLink && !permissions.claimPending ? claimLink(id) : null,
    claim_text: permissions.claimText && !permissions.claimPending,
    become_consultant:
      permissions.showBecomeConsultant &&
      permissions.showConsultant &&
      !permissions.consultRequestPending &&
      // a claimant waiting for verification is offered nothing else on the point meanwhile
      !permissions.claimPending &&
      !permissions.isOwner
        ? becomeConsultantLink(id)
        : null,
    stop_consulting: permissions.canStopConsulting ? clearConsultantLink(id, here) : null,
    dismiss_consultant: permissions.canDismissConsultant ? clearConsultantLink(id, here) : null,
    consultant_requests: permissions.canAnswerConsultantRequests,
    claim_pending: permissions.claimPending,
    consult_request_pending: permissions.consultRequestPending,
    fullscreen: permissions.showFullscreen ? fullscreenLink(id) : null,
    book: supertype === 'rental' ? rentalBookingLink(id) : null,
  };
}

function eventSummary(
  row: q.EventListRow,
  first: { start: number; end: number } | null,
  now: number,
): EventSummary {
  const timing = {
    start_date: Number(row.start_date),
    end_date: Number(row.end_date),
    first_interval: first,
  };
  return {
    id: row.id,
    title: row.title,
    cover_url: row.cover_url,
    type: row.type,
    subtype: row.subtype,
    start_date: timing.start_date,
    end_date: timing.end_date,
    status: eventStatus(timing, now),
    minutes_to_start: minutesUntilStart(timing, now),
    first_interval: first,
    admission: row.admission,
    admissionprice: num(row.admissionprice),
    url: isValidId(row.id) ? eventLink(row.id) : null,
  };
}

/** Point and event details and health photos (callback requests and the inbox: callbacks.ts). */
export class DetailService {
  constructor(private readonly store: Store) {}

  async pointDetails(viewer: Viewer, id: string, now: number, log: WarnLog): Promise<PointDetails> {
    if (!isValidId(id)) throw new AppError('invalidParam');
    const row = await q.findPointRow(this.store, id);
    if (!row) throw new AppError('pointNotFound', { id });
    const health = Number(row.health_status);
    const [screenshots, contacts, events, healthPhotos] = await Promise.all([
      q.screenshotsOf(this.store, id),
      q.contactsOf(this.store, id),
      q.eventsOf(this.store, id, now, POINT_PAST_EVENTS_MAX),
      health === HealthStatus.verified ? q.healthPhotosOf(this.store, id) : Promise.resolve([]),
    ]);
    const eventRows = [...events.open, ...events.past];
    const firsts = await q.firstIntervalsOf(
      this.store,
      eventRows.map((e) => e.id),
    );

    const subject: PointSubject = {
      supertype: row.supertype,
      owner_username: row.owner_username ?? null,
      consultant_username: row.consultant_username ?? null,
      allow_consulting: Number(row.allow_consulting),
      ...(await viewerPending(this.store, id, viewer?.id || null)),
    };
    const permissions = pointPermissions(viewer, subject);
    const showConsultant = permissions.showConsultant;
    const isService = row.supertype === 'service';
    const isHelpRequest = row.supertype === 'helprequest';

    const screenshotFields = {} as PointDetails['screenshots'];
    for (let position = 1; position <= MAX_SCREENSHOTS; position++)
      screenshotFields[`url_screenshot_${position}`] = null;
    for (const shot of screenshots)
      if (shot.position >= 1 && shot.position <= MAX_SCREENSHOTS)
        screenshotFields[`url_screenshot_${shot.position}`] = shot.url;
    const carousel: PointDetails['carousel'] = [];
    if (row.url_cover_video)
      carousel.push({ kind: 'video', url: row.url_cover_video, poster: row.url_cover_image });
    else if (row.url_cover_image) carousel.push({ kind: 'image', url: row.url_cover_image });
    for (const shot of screenshots.slice(0, MAX_SCREENSHOTS)) carousel.push({ kind: 'image', url: shot.url });

    const zone = pointTimeZone(row);
    let openingHours: PointDetails['opening_hours'] = null;
    if (row.opening_hours && row.opening_hours.trim() !== '') {
      const evaluated = evaluateOpeningHours(row.opening_hours, zone, now, {
        countryCode: row.city_iso2,
        lat: Number(row.lat),
        lon: Number(row.lon),
      });
      // §8: a string the library cannot read is shown as written, with a warning in the log
      if (evaluated.error)
        log.warn(
          { pointId: id, opening_hours: row.opening_hours, error: evaluated.error },
          'opening hours could not be parsed',
        );
      openingHours = { opening_hours_string: row.opening_hours, ...evaluated };
    }

    const split = splitEvents(
      eventRows.map((e) => eventSummary(e, firsts.get(e.id) ?? null, now)),
      now,
    );
    const stats = {
      total: Number(row.stats_total),
      prev_month: Number(row.stats_prev_month),
      this_month: Number(row.stats_this_month),
      today: Number(row.stats_today),
    };
    const sites =
      permissions.canSeeExternalSites && permissions.canHaveSites ? parseSites(row.xsites_json) : null;
    const pickupAt = num(row.pickup_date_time);

    return {
      id: row.id,
      supertype: row.supertype,
      type: row.type,
      subtype: row.subtype,
      title: row.title,
      tagline: row.tagline,
      description: row.description,
      description_display: descriptionDisplay(row.description),
      url: pointLink(row.id, row.supertype),
      has_app: flag(row.has_app),
      owner_userid: row.owner_userid,
      owner_username: row.owner_username ?? null,
      owner_fullname: row.owner_fullname ?? null,
      owner_avatar: row.owner_avatar ?? null,
      owner_status: row.owner_status ?? null,
      consultant_username: showConsultant ? (row.consultant_username ?? null) : null,
      consultant_fullname: showConsultant ? (row.consultant_fullname ?? null) : null,
      consultant_avatar: showConsultant ? (row.consultant_avatar ?? null) : null,
      location:
        row.city_name && row.city_forurl && row.city_country
          ? {
              country: row.city_country,
              city: row.city_name,
              city_forurl: row.city_forurl,
              state: row.city_state ?? null,
            }
          : null,
      lat: Number(row.lat),
      lon: Number(row.lon),
      full_address: row.full_address,
      full_address_display: displayAddress(row.full_address),
      link_email: row.link_email,
      link_phone: row.link_phone,
      link_website: row.link_website,
      link_facebook: row.link_facebook,
      links: {
        email: emailView(row.link_email),
        phone: phoneView(row.link_phone),
        website: linkView(row.link_website),
        facebook: linkView(row.link_facebook),
      },
      url_icon_or_logo: row.url_icon_or_logo,
      url_cover_video: row.url_cover_video,
      url_cover_image: row.url_cover_image,
      screenshots: screenshotFields,
      carousel,
      rating: num(row.rating),
      rating_count: Number(row.rating_count),
      rating_display: formatRating(num(row.rating)),
      contacts: contacts.map((c): ContactView => ({
        roleid: c.roleid,
        roleoverride: c.roleoverride,
        role_text: contactRoleText(c.roleid, c.roleoverride),
        contact_firstname: c.contact_firstname,
        contact_lastname: c.contact_lastname,
        contact_username: c.contact_username,
        avatar_url: c.avatar_url,
      })),
      healthdata: {
        status: health,
        status_name: HEALTH_NAMES[health] ?? 'undefined',
        photos: healthPhotos.map((p) => ({ position: p.position, url: p.url })),
      },
      xsites_json: sites ? { data: sites } : null,
      xpStats: stats,
      xpStats_display: {
        total: formatStat(stats.total),
        prev_month: formatStat(stats.prev_month),
        this_month: formatStat(stats.this_month),
        today: formatStat(stats.today),
      },
      time_zone_name: zone,
      opening_hours: openingHours,
      resellerid: row.resellerid,
      lastmodified: Number(row.updated_at),
      beamtype: Number(row.beamtype),
      beamtypes: beamTypesOf(Number(row.beamtype)),
      marker: {
        id: row.id,
        lng: Number(row.lon),
        lat: Number(row.lat),
        title: row.title,
        type: row.type,
        subtype: row.subtype,
        classes: row.marker ?? `xp-marker ${row.supertype} ${row.type}`,
        select: true,
        data: { hotpointclickurl: pointLink(row.id, row.supertype) },
      },
      pickup:
        pickupAt !== null
          ? {
              pickup_destination: row.pickup_destination,
              pickup_date_time: pickupAt,
              delivery_lat: num(row.delivery_lat),
              delivery_lng: num(row.delivery_lng),
            }
          : null,
      helprequestdata: isHelpRequest
        ? {
            taskduration_minutes: num(row.help_taskduration_minutes),
            taskduration_hours: durationHours(num(row.help_taskduration_minutes)),
            taskduration_display: formatDurationHours(num(row.help_taskduration_minutes)),
            taskbudget: num(row.help_taskbudget),
            taskbudget_display: formatPrice(num(row.help_taskbudget)),
            taskstart: num(row.help_taskstart),
            canacceptjob: flag(row.help_canacceptjob),
            canquote: flag(row.help_canquote),
          }
        : null,
      meonmap_enabled: isService ? flag(row.meonmap_enabled) : null,
      meonmap_xpointid: isService ? row.meonmap_xpointid : null,
      xpointService: isService ? row.xpoint_service : null,
      owner_dynamic_last_update: isService ? num(row.owner_dynamic_last_update) : null,
      owner_callchat_priceperminute: isService ? num(row.owner_callchat_priceperminute) : null,
      owner_callchat_priceperminute_display: isService
        ? formatPrice(num(row.owner_callchat_priceperminute))
        : null,
      da_xpoint_settings: { allow_consulting: flag(row.allow_consulting) },
      events: { ...split, past_total: events.pastTotal },
      permissions,
      controls: pointControls(row.id, row.supertype, permissions),
      evaluated_at: now,
    };
  }

  async eventDetails(viewer: Viewer, id: string, now: number): Promise<EventDetails> {
    if (!isValidId(id)) throw new AppError('invalidEventId');
    const row = await q.findEventRow(this.store, id);
    if (!row) throw new AppError('eventNotFound', { id });
    const [intervals, tickets] = await Promise.all([
      q.intervalsOf(this.store, id),
      q.ticketsOf(this.store, id),
    ]);
    const list = intervals.map((i) => ({ start: Number(i.start_at), end: Number(i.end_at) }));
    const summary = eventSummary(row, list[0] ?? null, now);
    const permissions = eventPermissions(viewer, { owner_username: row.owner_username ?? null });
    const here = summary.url ?? '/';
    return {
      ...summary,
      description: row.description,
      description_display: descriptionDisplay(row.description),
      owner_username: row.owner_username ?? null,
      owner_fullname: row.owner_fullname ?? null,
      owner_avatar: row.owner_avatar ?? null,
      xpoint_id: row.xpoint_id,
      xpoint_title: row.xpoint_title ?? null,
      xpoint_url:
        row.xpoint_id && isValidId(row.xpoint_id)
          ? pointLink(row.xpoint_id, row.xpoint_supertype ?? 'none')
          : null,
      intervals: list,
      location: {
        lat: Number(row.lat),
        lon: Number(row.lon),
        full_address: row.full_address,
        full_address_display: displayAddress(row.full_address),
        city: row.city_name ?? null,
        country: row.city_country ?? null,
        city_forurl: row.city_forurl ?? null,
      },
      admissionprice_display: formatPrice(num(row.admissionprice)),
      website: row.website,
      website_link: linkView(row.website),
      marker: row.marker,
      tickets: tickets.map((t) => ({
        id: Number(t.id),
        name: t.name,
        unit_price: Number(t.unit_price),
        unit_price_display: formatPrice(Number(t.unit_price)) ?? '0.00',
        max_quantity: Number(t.max_quantity),
        options: ticketOptions(Number(t.unit_price), Number(t.max_quantity)),
      })),
      permissions,
      controls: {
        edit: permissions.canEdit && summary.url ? eventEditLink(id, here) : null,
        copy: permissions.canCopy && summary.url ? eventCopyLink(id, here) : null,
        delete: permissions.canDelete && summary.url ? eventDeleteLink(id, here) : null,
      },
      evaluated_at: now,
    };
  }

  /** §7: the verified health photos by position; none unless the point's health status is verified. */
  async healthPhotos(id: string): Promise<HealthPhotosResponse> {
    const point = await q.healthStatusOf(this.store, id);
    if (!point) throw new AppError('pointNotFound', { id });
    const status = Number(point.health_status);
    const photos: HealthPhotosResponse['photos'] = {};
    if (status === HealthStatus.verified)
      for (const photo of await q.healthPhotosOf(this.store, id))
        photos[String(photo.position)] = { url: photo.url };
    return { id, status, photos };
  }
}
