import { isSafeReturnPath, parseAddress, type Route } from '../../../shared/address';

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
