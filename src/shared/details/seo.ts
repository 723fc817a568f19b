/**
 * What a search engine and a link preview read from the full-screen point page (issue 7): the
 * title, the description, the canonical address, Open Graph tags and schema.org JSON-LD. The
 * JSON-LD is typed with schema-dts, the schema.org vocabulary as TypeScript types, so a property
 * schema.org does not define on the type fails the type check.
 */
import type { Event, LocalBusiness, Place, PostalAddress, WithContext } from 'schema-dts';
import type { PointDetails } from '../api/details';
import { fullscreenLink } from '../address/links';
import { parseLatLonAddress } from './text';

/** What the page's head is built from: the point's details as the detail call answers them. */
export type SeoPoint = Pick<
  PointDetails,
  | 'id'
  | 'supertype'
  | 'type'
  | 'title'
  | 'tagline'
  | 'description'
  | 'location'
  | 'lat'
  | 'lon'
  | 'full_address'
  | 'link_email'
  | 'link_phone'
  | 'link_website'
  | 'link_facebook'
  | 'url_icon_or_logo'
  | 'carousel'
  | 'rating'
  | 'rating_count'
  | 'opening_hours'
> & {
  events?: {
    current: SeoEvent[];
    upcoming: SeoEvent[];
    later: SeoEvent[];
  } | null;
};

interface SeoEvent {
  id: string;
  title: string;
  start_date: number;
  end_date: number;
  cover_url?: string | null;
}

/** Search engines show about this many characters of a description. */
export const DESCRIPTION_MAX_CHARS = 160;
/** The site's name in titles and previews. */
export const SITE_NAME = 'XPoint';
/** Events listed in the JSON-LD: the current and coming ones, at most this many. */
const JSON_LD_EVENTS_MAX = 10;

/** Supertypes that are businesses with a place people go to or call; the rest are places. */
const BUSINESS_SUPERTYPES: ReadonlySet<string> = new Set(['business', 'service']);

/** `<title>`: the point's name, then the site's. */
export function pageTitle(point: Pick<SeoPoint, 'title'>): string {
  return `${point.title} — ${SITE_NAME}`;
}

/**
 * The meta description: the point's own description, else its tagline, else what and where it is;
 * one line, cut at a word boundary within 160 characters.
 */
export function pageDescription(point: SeoPoint, category: string): string {
  const where = [point.location?.city, point.location?.country].filter(Boolean).join(', ');
  const fallback = where ? `${point.title}: ${category} in ${where}.` : `${point.title}: ${category}.`;
  const text = (point.description || point.tagline || fallback).replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  if (chars.length <= DESCRIPTION_MAX_CHARS) return text;
  const cut = chars.slice(0, DESCRIPTION_MAX_CHARS - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > DESCRIPTION_MAX_CHARS / 2 ? atWord : cut).trimEnd()}…`;
}

/** The canonical address of the full-screen page: `/f/{id}` on the site's origin. */
export function canonicalUrl(origin: string, id: string): string {
  return `${origin}${fullscreenLink(id)}`;
}

/** An absolute URL for a path of ours or a URL that already is one; null for anything else. */
function absolute(origin: string, value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('/') && !value.startsWith('//')) return `${origin}${value}`;
  return null;
}

/** The picture a preview shows: the first image of the carousel (a video's poster), else the logo. */
export function previewImage(point: SeoPoint, origin: string): string | null {
  for (const slide of point.carousel) {
    const image = slide.kind === 'image' ? slide.url : slide.poster;
    const url = absolute(origin, image);
    if (url) return url;
  }
  return absolute(origin, point.url_icon_or_logo);
}

/**
 * Opening hours as schema.org's `openingHours` texts ('Mo-Fr 09:00-17:00'), one per rule, or none
 * when any rule says more than days and times (holidays, months, comments): a partial list would
 * tell search engines the place is closed when it is not.
 */
export function schemaOpeningHours(hours: string | null | undefined): string[] {
  if (!hours?.trim()) return [];
  const day = '(?:Mo|Tu|We|Th|Fr|Sa|Su)';
  const days = `${day}(?:-${day})?(?:,${day}(?:-${day})?)*`;
  const time = '(?:[01]\\d|2[0-4]):[0-5]\\d';
  const rule = new RegExp(`^(?:${days} )?${time}-${time}(?:,${time}-${time})*$`);
  const rules = hours
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  if (rules.every((part) => part === '24/7')) return ['Mo-Su 00:00-24:00'];
  return rules.every((part) => rule.test(part)) ? rules : [];
}

function postalAddress(point: SeoPoint): PostalAddress | null {
  const street = point.full_address && !parseLatLonAddress(point.full_address) ? point.full_address : null;
  const address: PostalAddress = {
    '@type': 'PostalAddress',
    ...(street ? { streetAddress: street } : {}),
    ...(point.location?.city ? { addressLocality: point.location.city } : {}),
    ...(point.location?.state ? { addressRegion: point.location.state } : {}),
    ...(point.location?.country ? { addressCountry: point.location.country } : {}),
  };
  return Object.keys(address).length > 1 ? address : null;
}

function eventJsonLd(event: SeoEvent, origin: string, place: Place): Event {
  const image = absolute(origin, event.cover_url);
  return {
    '@type': 'Event',
    name: event.title,
    startDate: new Date(event.start_date).toISOString(),
    endDate: new Date(event.end_date).toISOString(),
    url: absolute(origin, `/e/${encodeURIComponent(event.id)}`) ?? undefined,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    location: place,
    ...(image ? { image } : {}),
  };
}

/**
 * The point as schema.org JSON-LD: a LocalBusiness for businesses and services, a Place otherwise,
 * with its address, coordinates, contacts, pictures, rating, opening hours and coming events.
 */
export function pointJsonLd(point: SeoPoint, origin: string): WithContext<LocalBusiness | Place> {
  const url = canonicalUrl(origin, point.id);
  const address = postalAddress(point);
  const images = point.carousel
    .map((slide) => absolute(origin, slide.kind === 'image' ? slide.url : slide.poster))
    .filter((image): image is string => image !== null);
  const sameAs = [point.link_website, point.link_facebook].filter(
    (link): link is string => !!link && /^https?:\/\//i.test(link),
  );
  const place: Place = {
    '@type': 'Place',
    name: point.title,
    geo: { '@type': 'GeoCoordinates', latitude: point.lat, longitude: point.lon },
    ...(address ? { address } : {}),
  };
  const events = point.events
    ? [...point.events.current, ...point.events.upcoming, ...point.events.later].slice(0, JSON_LD_EVENTS_MAX)
    : [];
  const common = {
    '@id': `${url}#place`,
    name: point.title,
    url,
    geo: { '@type': 'GeoCoordinates', latitude: point.lat, longitude: point.lon },
    ...(point.description ? { description: point.description } : {}),
    ...(address ? { address } : {}),
    ...(images.length > 0 ? { image: images } : {}),
    ...(point.link_phone ? { telephone: point.link_phone } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
    ...(point.url_icon_or_logo ? { logo: absolute(origin, point.url_icon_or_logo) ?? undefined } : {}),
    ...(point.rating !== null && point.rating_count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            // §3: the rating is an average on 0-100, shown out of 5
            ratingValue: Math.round(point.rating / 2) / 10,
            bestRating: 5,
            worstRating: 0,
            ratingCount: point.rating_count,
          },
        }
      : {}),
    ...(events.length > 0 ? { event: events.map((event) => eventJsonLd(event, origin, place)) } : {}),
  } satisfies Partial<Place>;
  const hours = schemaOpeningHours(point.opening_hours?.opening_hours_string);
  if (BUSINESS_SUPERTYPES.has(point.supertype)) {
    return {
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      ...common,
      ...(point.link_email ? { email: point.link_email } : {}),
      ...(hours.length > 0 ? { openingHours: hours } : {}),
    };
  }
  return {
    '@context': 'https://schema.org',
    '@type': 'Place',
    ...common,
  };
}

/** `<`, `>` and `&` escaped, so the JSON cannot close the script element it sits in. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text safe inside an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface PageHead {
  title: string;
  description: string;
  canonical: string;
  /** the schema.org JSON-LD in its script element. */
  jsonLd: string;
  /** the rest of the head: canonical link, Open Graph and Twitter tags, and the JSON-LD script. */
  tags: string;
}

/** Everything the page's `<head>` says about the point. */
export function pointPageHead(point: SeoPoint, origin: string, category: string): PageHead {
  const title = pageTitle(point);
  const description = pageDescription(point, category);
  const canonical = canonicalUrl(origin, point.id);
  const image = previewImage(point, origin);
  const meta = (attribute: 'property' | 'name', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  const tags = [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    meta('property', 'og:type', BUSINESS_SUPERTYPES.has(point.supertype) ? 'business.business' : 'place'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', point.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', canonical),
    meta('property', 'place:location:latitude', String(point.lat)),
    meta('property', 'place:location:longitude', String(point.lon)),
    ...(image ? [meta('property', 'og:image', image)] : []),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
  ];
  const jsonLd = `<script type="application/ld+json">${scriptJson(pointJsonLd(point, origin))}</script>`;
  return { title, description, canonical, jsonLd, tags: tags.join('') + jsonLd };
}
