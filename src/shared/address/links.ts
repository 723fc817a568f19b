import type { Supertype } from '../domain/supertypes';
import {
  MAX_RETURN_PATH_LENGTH,
  buildAddress,
  canonicalPointPath,
  fullscreenPath,
  isSafeReturnPath,
} from './routes';
import type { PointRouteSupertype } from './types';

/**
 * Builders of every link the product builds (map-and-search §2 "Links the product builds"). Each is
 * `buildAddress` of a route, so a link and the parser never disagree. Invalid ids throw: a link to
 * an id that cannot exist is a programming error. Edit, delete and copy links take `successUrl`,
 * the path to return to; pass `successUrlFor(location.pathname, location.search)`.
 */

/** Social §2: profile pages keep their paging when the user returns after an edit. */
const PROFILE_PATH = /(^\/u\/[^/]+\/?$)|(\/profile\/)/i;
const PROFILE_PAGING = [
  ['pagenumber', '1'],
  ['pagesize', '12'],
] as const;

/**
 * The current path as a successUrl: the path alone (query flags such as createpost=open must not
 * fire again on return), except that a profile page (/u/{username}, or a path containing /profile/ as
 * the spec names it) keeps pagenumber and pagesize, defaulting to 1 and 12 (social §2). An unsafe or too long path falls back to '/'.
 */
export function successUrlFor(pathname: string, search = ''): string {
  if (!isSafeReturnPath(pathname)) return '/';
  if (!PROFILE_PATH.test(pathname)) return pathname;
  const params = new URLSearchParams(search);
  const paging = PROFILE_PAGING.map(([name, fallback]) => {
    const value = params.get(name) ?? '';
    return `${name}=${/^[1-9]\d{0,5}$/.test(value) ? value : fallback}`;
  }).join('&');
  const url = `${pathname}?${paging}`;
  return url.length <= MAX_RETURN_PATH_LENGTH ? url : pathname;
}

/** /{id}: the full-screen point page (/f/{id} when the id is a route word). */
export const fullscreenLink = (id: string): string => fullscreenPath(id);
/** /a/{id}: the point's landing page. */
export const pointLandingLink = (id: string): string => buildAddress({ screen: 'point-landing', id });
/** /{prefix}/{id}: point detail, prefixed by the point's supertype (x when unknown, e for an event). */
export const pointLink = (id: string, supertype: Supertype | string): string =>
  canonicalPointPath(id, supertype);
/** /u/{username}: a profile. */
export const profileLink = (username: string): string => buildAddress({ screen: 'profile', username });
/** /post/{id}: the map with the post open in the posts modal (what "copy link" copies). */
export const postLink = (id: string): string => buildAddress({ screen: 'post', id });
/** /cads/{city_forurl}: the city deals page. */
export const cityLink = (cityForUrl: string): string => buildAddress({ screen: 'city', cityForUrl });
/** /business/claim/{id} */
export const claimLink = (id: string): string => buildAddress({ screen: 'claim', id });
/** /business/becomecm/{id}: become the point's consultant. */
export const becomeConsultantLink = (id: string): string => buildAddress({ screen: 'become-consultant', id });
/** /business/ClearConsultant/{id}: stop consulting; returns to successUrl when given. */
export const clearConsultantLink = (id: string, successUrl?: string): string =>
  buildAddress({ screen: 'clear-consultant', id, successUrl });
/** /e/{id}: the event page. */
export const eventLink = (id: string): string => buildAddress({ screen: 'event-page', id });
/** /e/{id}/Edit?successUrl= */
export const eventEditLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'event-edit', id, successUrl });
/** /e/{id}/CopyToNew?successUrl= */
export const eventCopyLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'event-copy', id, successUrl });
/** /MyEvents/DeleteFromMap/{id}?successUrl= */
export const eventDeleteLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'event-delete', id, successUrl });
/** /{prefix}/{id}/Edit?successUrl= */
export const pointEditLink = (id: string, supertype: PointRouteSupertype, successUrl: string): string =>
  buildAddress({ screen: 'point-edit', supertype, id, successUrl });
/** /MeOnMap/Edit?id=&successUrl=: edit a service (meonmap) point. */
export const serviceEditLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'service-edit', id, successUrl });
/** /MyExperience/Edit?id=&successUrl= */
export const experienceEditLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'experience-edit', id, successUrl });
/** /MyRental/Edit?id=&successUrl= */
export const rentalEditLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'rental-edit', id, successUrl });
/** /MyExperience/Delete?id=&successUrl= */
export const experienceDeleteLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'experience-delete', id, successUrl });
/** /MyRental/Delete?id=&successUrl= */
export const rentalDeleteLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'rental-delete', id, successUrl });
/** /MyXPoints/Delete/{id}?successUrl=: delete a point. */
export const pointDeleteLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'delete-redirect', id, successUrl });
/** /h/{id}/CopyToNew?successUrl=: copy a help request to a new one. */
export const helpRequestCopyLink = (id: string, successUrl: string): string =>
  buildAddress({ screen: 'helprequest-copy', id, successUrl });
/** /Event/AddAsChild?parentid={id} */
export const addChildEventLink = (parentId: string): string =>
  buildAddress({ screen: 'event-add-child', parentId });
/** /rental/{id}/2: book a rental. */
export const rentalBookingLink = (id: string): string => buildAddress({ screen: 'rental-book', id });
/** /Review/InviteReview?appid={id} */
export const inviteReviewLink = (appId: string): string => buildAddress({ screen: 'invite-review', appId });
