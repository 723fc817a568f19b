import { buildAddress, isSafeReturnPath, parseAddress, type Route } from '../../../shared/address';

/**
 * Where an owner's page goes when it is done (map-and-search §2: edit, delete and copy links carry a
 * successUrl, the path to return to). Pure, so the rules are tested apart from the pages.
 */

/** Map mode: where a deletion goes when there is nothing better. */
export const MAP_PATH = '/maps';

/** The id a route shows, when it shows one point or event. */
function shownId(route: Route): string | null {
  if (route.screen === 'event') return route.eventId;
  if (route.screen === 'event-add-child') return route.parentId;
  return 'id' in route ? route.id : null;
}

/** successUrl when it is a same-site path, else `fallback`. */
export function returnAfterSave(successUrl: string | undefined, fallback: string): string {
  return successUrl !== undefined && isSafeReturnPath(successUrl) ? successUrl : fallback;
}

/**
 * After deleting `id`: successUrl, unless it shows the deleted point or event itself (the links of a
 * point's panel return to that panel), which no longer exists; then `fallback` (the map, or the
 * point a deleted event belonged to).
 */
export function returnAfterDelete(successUrl: string | undefined, id: string, fallback = MAP_PATH): string {
  const target = returnAfterSave(successUrl, fallback);
  const [pathname = '/', search = ''] = target.split(/(?=\?)/, 2);
  const { route } = parseAddress(pathname, search);
  return shownId(route) === id ? fallback : target;
}

/**
 * A control's link with `successUrl` set to where the visitor is now (issue 21, item 11; §2 "edit,
 * delete and copy links carry a successUrl parameter holding the current path"): the server builds
 * them with the point's own address, so editing from a search result list would not return to the
 * list. A delete link returns to the level below the point (the deleted point's own level is gone).
 * A link without successUrl, or a current path that is not a safe return path, is left as it is.
 */
export function withCurrentSuccessUrl(
  href: string,
  current: string,
  pointId: string,
  isDelete = false,
): string {
  const url = new URL(href, 'http://x');
  if (!url.searchParams.has('successUrl') || !isSafeReturnPath(current)) return href;
  let target = current;
  if (isDelete) {
    const [pathname = '/', search = ''] = current.split(/(?=\?)/, 2);
    const { route } = parseAddress(pathname, search);
    if (
      (route.screen === 'map-search' || route.screen === 'landing-search') &&
      route.data.xpoint?.id === pointId
    ) {
      const { xpoint: _opened, ...data } = route.data;
      target = buildAddress({ ...route, data });
    }
  }
  url.searchParams.set('successUrl', target);
  return `${url.pathname}${url.search}${url.hash}`;
}
