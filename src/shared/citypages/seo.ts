/**
 * What search engines and link previews read from the city page and the event page (issue 19):
 * title, description, canonical address, Open Graph tags and schema.org JSON-LD, typed with schema-dts
 * like the point page's (shared/details/seo.ts), so a property schema.org does not define fails the
 * type check. The city page says an ItemList of its posts and an Event per event; the event page one
 * Event with its place, organizer, offers from its tickets, status and attendance mode.
 */
import type { Event, ItemList, Offer, Organization, Person, Place, WithContext } from 'schema-dts';
import { cityLink, eventLink, profileLink } from '../address/links';
import { escapeHtml, scriptJson, SITE_NAME, DESCRIPTION_MAX_CHARS, type PageHead } from '../details/seo';
import { parseLatLonAddress } from '../details/text';
import { CATEGORY_TITLES, type CityPageData, type CityPageEvent, type EventPageData } from './page';

/** An absolute URL for a path of ours or a URL that already is one; null for anything else. */
function absolute(origin: string, value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('/') && !value.startsWith('//')) return `${origin}${value}`;
  return null;
}

/** One line, cut at a word within the length search engines show. */
export function clip(text: string, max = DESCRIPTION_MAX_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > max / 2 ? atWord : cut).trimEnd()}…`;
}

/** A street address, unless the stored address is only 'lat,lon'. */
function street(address: string | null | undefined): string | null {
  return address && !parseLatLonAddress(address) ? address : null;
}

function cityEventJsonLd(event: CityPageEvent, data: CityPageData, origin: string): WithContext<Event> {
  const image = absolute(origin, event.cover_url);
  const streetAddress = street(event.address);
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    startDate: new Date(event.start_date).toISOString(),
    endDate: new Date(event.end_date).toISOString(),
    url: `${origin}${eventLink(event.id)}`,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: {
      '@type': 'Place',
      name: streetAddress ?? data.city.name,
      address: {
        '@type': 'PostalAddress',
        ...(streetAddress ? { streetAddress } : {}),
        addressLocality: data.city.name,
        ...(data.city.state ? { addressRegion: data.city.state } : {}),
        addressCountry: data.city.country,
      },
      geo: { '@type': 'GeoCoordinates', latitude: event.lat, longitude: event.lon },
    },
    ...(image ? { image: [image] } : {}),
  };
}

/** The city page's JSON-LD: an ItemList of its hot posts, then one Event per event. */
export function cityJsonLd(data: CityPageData, origin: string): WithContext<ItemList | Event>[] {
  const url = `${origin}${cityLink(data.city.city_forurl)}`;
  const list: WithContext<ItemList> = {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: `Posts in ${data.city.name}`,
    url,
    numberOfItems: data.hot.length,
    itemListOrder: 'https://schema.org/ItemListOrderDescending',
    itemListElement: data.hot.map((post, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      url: `${origin}${post.url}`,
      name: post.title,
    })),
  };
  return [list, ...data.events.map((event) => cityEventJsonLd(event, data, origin))];
}

function organizer(event: EventPageData['event'], origin: string): Person | Organization | null {
  if (event.xpoint_id && event.xpoint_title)
    return {
      '@type': 'Organization',
      name: event.xpoint_title,
      ...(event.xpoint_url ? { url: `${origin}${event.xpoint_url}` } : {}),
    };
  const name = event.owner_fullname || event.owner_username;
  if (!name) return null;
  return {
    '@type': 'Person',
    name,
    ...(event.owner_username ? { url: `${origin}${profileLink(event.owner_username)}` } : {}),
  };
}

/**
 * The event page's JSON-LD: the event with its place (address and coordinates), organizer, picture,
 * status, attendance mode and an Offer per ticket (the store keeps no currency, so none is said).
 */
export function eventJsonLd(data: EventPageData, origin: string): WithContext<Event> {
  const event = data.event;
  const url = `${origin}${eventLink(event.id)}`;
  const image = absolute(origin, event.cover_url);
  const streetAddress = street(event.location.full_address);
  const place: Place = {
    '@type': 'Place',
    name: event.xpoint_title ?? streetAddress ?? event.location.city ?? event.title,
    address: {
      '@type': 'PostalAddress',
      ...(streetAddress ? { streetAddress } : {}),
      ...(event.location.city ? { addressLocality: event.location.city } : {}),
      ...(event.location.country ? { addressCountry: event.location.country } : {}),
    },
    geo: { '@type': 'GeoCoordinates', latitude: event.location.lat, longitude: event.location.lon },
  };
  const offers: Offer[] = event.tickets.map((ticket) => ({
    '@type': 'Offer',
    name: ticket.name,
    price: ticket.unit_price,
    url,
    availability: ticket.options.length > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
  }));
  if (offers.length === 0 && event.admission === 'free')
    offers.push({ '@type': 'Offer', name: 'Free admission', price: 0, url });
  const by = organizer(event, origin);
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    url,
    startDate: new Date(event.start_date).toISOString(),
    endDate: new Date(event.end_date).toISOString(),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: place,
    ...(event.description ? { description: event.description } : {}),
    ...(image ? { image: [image] } : {}),
    ...(by ? { organizer: by } : {}),
    ...(offers.length > 0 ? { offers } : {}),
  };
}

function head(
  title: string,
  description: string,
  canonical: string,
  ogType: string,
  image: string | null,
  documents: unknown[],
): PageHead {
  const meta = (attribute: 'property' | 'name', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  const jsonLd = documents
    .map((document) => `<script type="application/ld+json">${scriptJson(document)}</script>`)
    .join('');
  const tags = [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    meta('property', 'og:type', ogType),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', canonical),
    ...(image ? [meta('property', 'og:image', image)] : []),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    jsonLd,
  ].join('');
  return { title: `${title} — ${SITE_NAME}`, description, canonical, jsonLd, tags };
}

/** Everything the city page's `<head>` says. */
export function cityPageHead(data: CityPageData, origin: string): PageHead {
  const name = data.city.name;
  const where = data.city.state ? `${name}, ${data.city.state}` : `${name}, ${data.city.country}`;
  const kinds = data.categories.slice(0, 3).map((category) => CATEGORY_TITLES[category.type].toLowerCase());
  const what = kinds.length > 0 ? `${kinds.join(', ')} and more` : 'deals, classifieds and gigs';
  const description = clip(
    `${what[0]?.toUpperCase()}${what.slice(1)} posted by people in ${where}; ` +
      `${data.events.length > 0 ? 'events on now and soon, ' : ''}and the places most visited.`,
  );
  return head(
    `Deals and posts in ${name}`,
    description,
    `${origin}${cityLink(data.city.city_forurl)}`,
    'website',
    null,
    cityJsonLd(data, origin),
  );
}

/** Everything the event page's `<head>` says. */
export function eventPageHead(data: EventPageData, origin: string): PageHead {
  const event = data.event;
  const where = [event.location.city, event.location.country].filter(Boolean).join(', ');
  const description = clip(
    event.description ||
      `${event.title}: ${event.type.replaceAll('_', ' ')} event${where ? ` in ${where}` : ''}.`,
  );
  return head(
    event.title,
    description,
    `${origin}${eventLink(event.id)}`,
    'website',
    absolute(origin, event.cover_url),
    [eventJsonLd(data, origin)],
  );
}

/** The head of a page that answers 404 or lists cities: never indexed. */
export function searchPageHead(title: string, description: string): string {
  return (
    `<title>${escapeHtml(`${title} — ${SITE_NAME}`)}</title>` +
    `<meta name="description" content="${escapeHtml(description)}">` +
    '<meta name="robots" content="noindex">'
  );
}
