import type { FeedItem, LandingFeedPage } from '../../../shared/api/home';
import { escapeHtml } from '../../../shared/details/seo';
import { formatDate } from '../../../shared/format';

/**
 * Social §7's answer to POST /asidelandingfeed: an HTML feed fragment. Each item carries social §3's
 * feed item attributes as data- attributes (id, type, owner, url, isfollowed) and the page's next
 * cursor sits on the list (data-before, data-beforeid; absent at the end), so a page script can ask for
 * the next page. Every value is escaped; dates use §9's format in the city's time zone.
 */
export function feedFragment(page: LandingFeedPage): string {
  const { city } = page;
  const next = page.next
    ? ` data-before="${escapeHtml(page.next.before)}" data-beforeid="${escapeHtml(page.next.beforeid)}"`
    : '';
  const items = page.items.map((item) => feedItemHtml(item, city.time_zone ?? undefined)).join('');
  return (
    `<section class="landingfeed" data-cityid="${city.id}" aria-label="News in ${escapeHtml(city.city)}">` +
    `<h2 class="landingfeed__header"><a href="/cads/${escapeHtml(city.city_forurl)}">News in ${escapeHtml(city.city)}</a></h2>` +
    (page.items.length === 0
      ? '<p class="landingfeed__empty">No posts in this city yet.</p>'
      : `<ul class="landingfeed__items"${next}>${items}</ul>`) +
    '</section>'
  );
}

function feedItemHtml(item: FeedItem, timeZone: string | undefined): string {
  const image = item.image_variants?.feed ?? item.image_url;
  return (
    `<li class="feeditem" data-id="${escapeHtml(item.id)}" data-type="${escapeHtml(item.type)}"` +
    ` data-owner="${escapeHtml(item.owner)}" data-url="${escapeHtml(item.url)}" data-isfollowed="${item.isfollowed}">` +
    `<a class="feeditem__link" href="${escapeHtml(item.url)}">` +
    `<img class="feeditem__image" src="${escapeHtml(image)}" alt="" loading="lazy">` +
    `<span class="feeditem__title">${escapeHtml(item.title)}</span></a>` +
    `<span class="feeditem__meta"><time datetime="${new Date(item.addedon).toISOString()}">` +
    `${escapeHtml(formatDate(item.addedon, timeZone))}</time> · ${escapeHtml(item.user_displayname)}</span>` +
    '</li>'
  );
}
