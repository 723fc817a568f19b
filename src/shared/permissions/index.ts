/**
 * Who may do what (map-and-search §5 and §6, social §6): pure functions over a viewer and a thing,
 * used by the server to enforce every write and by the web app to show or hide controls.
 * A viewer is null for a visitor. Names compare case-insensitively, as usernames are unique that way.
 */

/** The person looking: null is a visitor (not signed in). */
export type Viewer = { id: string; username: string; isAdmin: boolean } | null;

/** What a point's permissions depend on (a point row joined with its owner's and consultant's names). */
export interface PointSubject {
  supertype: string;
  owner_username: string | null;
  consultant_username: string | null;
  /** da_xpoint_settings.allow_consulting: 0/1 in the store. */
  allow_consulting: boolean | number;
}

export interface EventSubject {
  owner_username: string | null;
}

/** Help requests and incidents are reports, not places: no sites, no full-screen page, no consultant. */
const REPORT_SUPERTYPES = new Set(['helprequest', 'incident']);
/** Only these show the claim text beside the claim link (§6). */
const CLAIM_TEXT_SUPERTYPES = new Set(['experience', 'rental']);

function sameName(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

export function isSignedIn(viewer: Viewer): viewer is NonNullable<Viewer> {
  return viewer !== null && viewer.id !== '';
}

export function isAdmin(viewer: Viewer): boolean {
  return isSignedIn(viewer) && viewer.isAdmin;
}

export function isPointOwner(viewer: Viewer, point: PointSubject): boolean {
  return isSignedIn(viewer) && sameName(viewer.username, point.owner_username);
}

export function isPointConsultant(viewer: Viewer, point: PointSubject): boolean {
  return isSignedIn(viewer) && sameName(viewer.username, point.consultant_username);
}

/** §5: a point is controllable (edit, delete, invite review) by its owner, its consultant or an admin. */
export function canControlPoint(viewer: Viewer, point: PointSubject): boolean {
  return isPointOwner(viewer, point) || isPointConsultant(viewer, point) || isAdmin(viewer);
}

/** §5: an event is controllable (copy, edit, delete) by its owner or an admin. */
export function canControlEvent(viewer: Viewer, event: EventSubject): boolean {
  return (isSignedIn(viewer) && sameName(viewer.username, event.owner_username)) || isAdmin(viewer);
}

/** §6: only the owner and the consultant (and admins, who control everything) see external sites. */
export function canSeeExternalSites(viewer: Viewer, point: PointSubject): boolean {
  return canControlPoint(viewer, point);
}

/** §6: help requests and incidents cannot have sites. */
export function canHaveSites(point: PointSubject): boolean {
  return !REPORT_SUPERTYPES.has(point.supertype);
}

/** §6: help requests and incidents lose the full-screen button. */
export function showFullscreen(point: PointSubject): boolean {
  return !REPORT_SUPERTYPES.has(point.supertype);
}

/** §5: shown unless a help request or incident, or the owner exists without a consultant and consulting is off. */
export function showConsultant(point: PointSubject): boolean {
  if (REPORT_SUPERTYPES.has(point.supertype)) return false;
  const ownerWithoutConsultantOrConsulting =
    !!point.owner_username && !point.consultant_username && !point.allow_consulting;
  return !ownerWithoutConsultantOrConsulting;
}

/** §6: unowned points offer a claim link (/business/claim/{id}). */
export function showClaimLink(point: PointSubject): boolean {
  return !point.owner_username;
}

/** §6: the claim text appears only for experiences and rentals. */
export function showClaimText(point: PointSubject): boolean {
  return showClaimLink(point) && CLAIM_TEXT_SUPERTYPES.has(point.supertype);
}

/** §6: points with no consultant offer a 'become consultant' link (/business/becomecm/{id}). */
export function showBecomeConsultant(point: PointSubject): boolean {
  return !point.consultant_username;
}

/** §6: the consultant (and only they) may stop consulting (/business/ClearConsultant/{id}). */
export function canStopConsulting(viewer: Viewer, point: PointSubject): boolean {
  return isPointConsultant(viewer, point);
}

/** §6: help requests offer copy-to-new (/h/{id}/CopyToNew) to their controllers; other points have none. */
export function canCopyPointToNew(viewer: Viewer, point: PointSubject): boolean {
  return point.supertype === 'helprequest' && canControlPoint(viewer, point);
}

/** §6: service points show owner status, visible-on-map flag, last location update and call/chat price. */
export function showServiceDetails(point: PointSubject): boolean {
  return point.supertype === 'service';
}

/** §6: chat channels need a signed-in user; likes, comments, follows and posts too (social §6). */
export function canUseChat(viewer: Viewer): boolean {
  return isSignedIn(viewer);
}
export function canTakePart(viewer: Viewer): boolean {
  return isSignedIn(viewer);
}

/** Social §6: comment edit and remove appear only on the current user's own comments. */
export function canChangeComment(viewer: Viewer, comment: { author_id: string }): boolean {
  return isSignedIn(viewer) && viewer.id === comment.author_id;
}

/** Social §6: users edit, delete and renew their own posts; the spec leaves admins open, and we allow them. */
export function canChangePost(viewer: Viewer, post: { user_id: string }): boolean {
  return (isSignedIn(viewer) && viewer.id === post.user_id) || isAdmin(viewer);
}

/** Everything a point's page needs to know about the viewer's rights, in one object. */
export interface PointPermissions {
  controllable: boolean;
  isOwner: boolean;
  isConsultant: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canCopyToNew: boolean;
  canInviteReview: boolean;
  canAddChildEvent: boolean;
  canSeeExternalSites: boolean;
  canHaveSites: boolean;
  showFullscreen: boolean;
  showConsultant: boolean;
  showClaimLink: boolean;
  claimText: boolean;
  showBecomeConsultant: boolean;
  canStopConsulting: boolean;
  showServiceDetails: boolean;
  canUseChat: boolean;
}

export function pointPermissions(viewer: Viewer, point: PointSubject): PointPermissions {
  const controllable = canControlPoint(viewer, point);
  return {
    controllable,
    isOwner: isPointOwner(viewer, point),
    isConsultant: isPointConsultant(viewer, point),
    canEdit: controllable,
    canDelete: controllable,
    canCopyToNew: canCopyPointToNew(viewer, point),
    canInviteReview: controllable,
    canAddChildEvent: controllable,
    canSeeExternalSites: canSeeExternalSites(viewer, point),
    canHaveSites: canHaveSites(point),
    showFullscreen: showFullscreen(point),
    showConsultant: showConsultant(point),
    showClaimLink: showClaimLink(point),
    claimText: showClaimText(point),
    showBecomeConsultant: showBecomeConsultant(point),
    canStopConsulting: canStopConsulting(viewer, point),
    showServiceDetails: showServiceDetails(point),
    canUseChat: canUseChat(viewer),
  };
}

export interface EventPermissions {
  controllable: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canCopy: boolean;
}

export function eventPermissions(viewer: Viewer, event: EventSubject): EventPermissions {
  const controllable = canControlEvent(viewer, event);
  return { controllable, canEdit: controllable, canDelete: controllable, canCopy: controllable };
}
