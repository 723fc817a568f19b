/**
 * Text display rules of the point and event panels (map-and-search §5, §9): the description toggle,
 * the 'lat,lon' address in degrees, links that are clickable only when safe, contact role names.
 */
import { CONTACT_ROLES } from '../domain/enums';

/** §9: the description collapses when it is longer than this many characters (§5: toggle only above it). */
export const DESCRIPTION_LIMIT_CHARS = 250;

export interface DescriptionView {
  /** the whole text, as written. */
  full: string;
  /** what shows while collapsed: the whole text when short, else its first 250 characters and '…'. */
  preview: string;
  /** §5: the toggle exists only above 250 characters. */
  collapsible: boolean;
}

/** Characters are counted as the reader sees them (code points), so an emoji is never cut in half. */
export function describeText(text: string | null | undefined): DescriptionView {
  const full = text ?? '';
  const chars = Array.from(full);
  if (chars.length <= DESCRIPTION_LIMIT_CHARS) return { full, preview: full, collapsible: false };
  return {
    full,
    preview: `${chars.slice(0, DESCRIPTION_LIMIT_CHARS).join('').trimEnd()}…`,
    collapsible: true,
  };
}

/** §5: 'two signed decimals' separated by a comma, spaces allowed around them. */
const LAT_LON_ADDRESS = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/** The coordinates of an address written as 'lat,lon', or null for any other address or out-of-range values. */
export function parseLatLonAddress(address: string | null | undefined): { lat: number; lon: number } | null {
  const match = address ? LAT_LON_ADDRESS.exec(address) : null;
  if (!match) return null;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon };
}

/** One coordinate as degrees, minutes and whole seconds: 40.712778 -> 40°42′46″ (minutes and seconds 2 digits). */
function dms(value: number): string {
  let totalSeconds = Math.round(Math.abs(value) * 3600);
  const degrees = Math.floor(totalSeconds / 3600);
  totalSeconds -= degrees * 3600;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds - minutes * 60;
  return `${degrees}°${String(minutes).padStart(2, '0')}′${String(seconds).padStart(2, '0')}″`;
}

/** 40.712778, -74.006111 -> '40°42′46″N 74°00′22″W'. */
export function formatDegrees(lat: number, lon: number): string {
  return `${dms(lat)}${lat < 0 ? 'S' : 'N'} ${dms(lon)}${lon < 0 ? 'W' : 'E'}`;
}

/** §5: an address that is 'lat,lon' is shown in degrees; any other address as written. */
export function displayAddress(address: string | null | undefined): string {
  const coordinates = parseLatLonAddress(address);
  return coordinates ? formatDegrees(coordinates.lat, coordinates.lon) : (address ?? '');
}

export interface LinkView {
  /** the text shown: the value as written. */
  text: string;
  /** where a click goes, or null when the value is shown as plain text. */
  href: string | null;
}

/**
 * §5: website and facebook values are links only when they begin with http://, https:// or our own
 * host (given as a bare host name, 'xpoint.example', or an origin, 'https://xpoint.example');
 * anything else (javascript:, 'www.shop.com', free text) is plain text. A value beginning with the
 * bare host gets https:// in front.
 */
export function linkView(value: string | null | undefined, ownHost?: string | null): LinkView {
  const text = (value ?? '').trim();
  if (/^https?:\/\/[^\s/]/i.test(text)) return { text, href: text };
  const host = (ownHost ?? '')
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
  if (host && text.toLowerCase().startsWith(host)) {
    const next = text.charAt(host.length);
    if (next === '' || next === '/' || next === '?' || next === '#') return { text, href: `https://${text}` };
  }
  return { text, href: null };
}

/** An email address as a mailto: link when it looks like one (one @, a dot in the domain, no spaces). */
export function emailView(value: string | null | undefined): LinkView {
  const text = (value ?? '').trim();
  return { text, href: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? `mailto:${text}` : null };
}

/** A phone number as a tel: link when it is digits with the usual separators. */
export function phoneView(value: string | null | undefined): LinkView {
  const text = (value ?? '').trim();
  const digits = text.replace(/[\s().-]/g, '');
  return { text, href: /^\+?\d{3,20}$/.test(digits) ? `tel:${digits}` : null };
}

/** §3: ADMN Administrator, _CEO CEO, OWNR Business owner, CUST the contact's own role text. */
export function contactRoleText(roleid: string, roleoverride: string | null | undefined): string {
  if (roleid === 'CUST') return roleoverride?.trim() || CONTACT_ROLES.CUST;
  return (CONTACT_ROLES as Record<string, string>)[roleid] ?? roleid;
}
