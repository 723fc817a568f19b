import { randomBytes } from 'node:crypto';
import type { ContactInput, EditablePoint, PointFields } from '../../../shared/api/points';
import { pointLink } from '../../../shared/address';
import type { PointUpdate } from '../../store/schema';
import type * as q from './queries';

/** How a point's wire fields become its row and back (spec §3 names on the wire, columns in the store). */

/** A new id: 12 characters of letters, digits, '_' and '-' (spec §2), never starting with a symbol. */
export function newId(): string {
  for (;;) {
    const id = randomBytes(9).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** The simple columns of the editable fields that are present in `fields` (absent ones stay as they are). */
export function columnsOf(fields: PointFields): PointUpdate {
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

export function contactRows(contacts: ContactInput[] | undefined): q.ContactRow[] | undefined {
  return contacts?.map((c) => ({
    roleid: c.roleid,
    roleoverride: c.roleid === 'CUST' ? (c.roleoverride ?? null) : null,
    contact_firstname: c.contact_firstname ?? null,
    contact_lastname: c.contact_lastname ?? null,
    contact_username: c.contact_username ?? null,
  }));
}

/** GET /v1/xpoint/{id}/edit: every editable field as stored, for the edit and copy-to-new forms. */
export function editableOf(
  point: q.PointForWrite,
  contacts: q.ContactRow[],
  screenshots: EditablePoint['screenshots'],
  healthPhotos: EditablePoint['health_photos'],
): EditablePoint {
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
    health_status: Number(point.health_status),
    health_photos: healthPhotos,
    owner_username: point.owner_username ?? null,
    consultant_username: point.consultant_username ?? null,
    version: point.version,
    url: pointLink(point.id, point.supertype),
  };
}
