/**
 * Who may do what (map-and-search §5 and §6, social §6): pure functions over a viewer and a thing,
 * used by the server to enforce every write and by the web app to show or hide controls.
 * A viewer is null for a visitor. Names compare case-insensitively, as usernames are unique that way.
 *
 * Every write on points and events is decided by ONE table, `MATRIX` in ./matrix.ts (role × action ×
 * state of the point → allowed, pending or the error answered); the functions below ask it through
 * `pointOutcome` and never restate a rule. In short: the owner and admins control a point; a
 * consultant edits it but never deletes it and never changes who owns or consults it; becoming the
 * consultant of an owned point is a request its owner accepts or declines (of an unowned one, at once);
 * the owner, an admin or the consultant ends consulting; a claim is a request an admin decides, and a
 * pending claimant or requester controls nothing. docs/api/points-write.md says the same.
 */
import { decide, isAllowed, type Action, type Outcome, type ResourceState, type Role } from './matrix';

export { ACTIONS, MATRIX, ROLES, STATES, decide, isAllowed, possible } from './matrix';
export type { Action, Outcome, ResourceState, Role, Rule } from './matrix';

/** The person looking: null is a visitor (not signed in). */
export type Viewer = { id: string; username: string; isAdmin: boolean } | null;

/** What a point's permissions depend on (a point row joined with its owner's and consultant's names). */
export interface PointSubject {
  supertype: string;
  owner_username: string | null;
  consultant_username: string | null;
  /** da_xpoint_settings.allow_consulting: 0/1 in the store. */
  allow_consulting: boolean | number;
  /** the viewer has a claim on this point waiting for an admin (absent: no). */
  viewer_claim_pending?: boolean;
  /** the viewer asked its owner to consult this point and has no answer yet (absent: no). */
  viewer_request_pending?: boolean;
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

/** The viewer's role on a point, as the authorisation table names it (an admin who owns it is its owner). */
export function pointRole(viewer: Viewer, point: PointSubject): Role {
  if (!isSignedIn(viewer)) return 'visitor';
  if (isPointOwner(viewer, point)) return 'owner';
  if (isAdmin(viewer)) return 'admin';
  if (isPointConsultant(viewer, point)) return 'consultant';
  if (point.viewer_request_pending) return 'requester';
  if (point.viewer_claim_pending) return 'claimant';
  return 'stranger';
}

/** What of a point the authorisation table looks at. */
export function pointState(point: PointSubject): ResourceState {
  return {
    owned: !!point.owner_username,
    consulting: !!Number(point.allow_consulting),
    report: REPORT_SUPERTYPES.has(point.supertype),
    consultant: !!point.consultant_username,
  };
}

/** The table's answer for this viewer, action and point: 'ok', 'pending' or the error to answer. */
export function pointOutcome(viewer: Viewer, action: Action, point: PointSubject): Outcome {
  return decide(action, pointRole(viewer, point), pointState(point));
}

export function mayOnPoint(viewer: Viewer, action: Action, point: PointSubject): boolean {
  return isAllowed(pointOutcome(viewer, action, point));
}

/** §5: a point is controllable (edit, invite review, add events) by its owner, its consultant or an admin. */
export function canControlPoint(viewer: Viewer, point: PointSubject): boolean {
  return mayOnPoint(viewer, 'update', point);
}

/** Deleting is the owner's and admins': never the consultant's (issue 16). */
export function canDeletePoint(viewer: Viewer, point: PointSubject): boolean {
  return mayOnPoint(viewer, 'delete', point);
}

/** An event is controllable (copy, edit, delete) by its owner or an admin. */
export function canControlEvent(viewer: Viewer, event: EventSubject): boolean {
  const role: Role = !isSignedIn(viewer)
    ? 'visitor'
    : isAdmin(viewer)
      ? 'admin'
      : sameName(viewer.username, event.owner_username)
        ? 'owner'
        : 'stranger';
  // an event's rules do not depend on its point's state: any state in which its owner can exist
  return isAllowed(decide('eventUpdate', role, EVENT_STATE));
}
const EVENT_STATE: ResourceState = { owned: true, consulting: true, report: false, consultant: false };

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
  return pointRole(viewer, point) === 'consultant' && mayOnPoint(viewer, 'clearConsultant', point);
}

/** The owner (or an admin) may remove the consultant at any time, after a confirmation (§5). */
export function canDismissConsultant(viewer: Viewer, point: PointSubject): boolean {
  const role = pointRole(viewer, point);
  return (role === 'owner' || role === 'admin') && pointOutcome(viewer, 'clearConsultant', point) === 'ok';
}

/** The owner (or an admin) sees and answers the requests to consult an owned point. */
export function canAnswerConsultantRequests(viewer: Viewer, point: PointSubject): boolean {
  const role = pointRole(viewer, point);
  return point.owner_username !== null && (role === 'owner' || role === 'admin');
}

/** §6: help requests offer copy-to-new (/h/{id}/CopyToNew) to their controllers; other points have none. */
export function canCopyPointToNew(viewer: Viewer, point: PointSubject): boolean {
  return point.supertype === 'helprequest' && mayOnPoint(viewer, 'copyToNew', point);
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

/** Issue 18: a comment is removed by its author, the author of what it is on, or an admin. */
export function canRemoveComment(
  viewer: Viewer,
  comment: { author_id: string },
  object: { user_id: string },
): boolean {
  return (
    isSignedIn(viewer) && (viewer.id === comment.author_id || viewer.id === object.user_id || isAdmin(viewer))
  );
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
  /** the owner's (or an admin's) "Remove consultant" */
  canDismissConsultant: boolean;
  /** the owner's (or an admin's) list of pending requests to consult, with Accept and Decline */
  canAnswerConsultantRequests: boolean;
  /** the viewer's claim waits for an admin: "Verification pending" */
  claimPending: boolean;
  /** the viewer's request to consult waits for the owner: "Request sent — waiting for the owner" */
  consultRequestPending: boolean;
  showServiceDetails: boolean;
  canUseChat: boolean;
}

export function pointPermissions(viewer: Viewer, point: PointSubject): PointPermissions {
  const controllable = canControlPoint(viewer, point);
  const role = pointRole(viewer, point);
  return {
    controllable,
    isOwner: isPointOwner(viewer, point),
    isConsultant: isPointConsultant(viewer, point),
    canEdit: controllable,
    canDelete: canDeletePoint(viewer, point),
    canCopyToNew: canCopyPointToNew(viewer, point),
    canInviteReview: mayOnPoint(viewer, 'inviteReview', point),
    canAddChildEvent: mayOnPoint(viewer, 'addChildEvent', point),
    canSeeExternalSites: canSeeExternalSites(viewer, point),
    canHaveSites: canHaveSites(point),
    showFullscreen: showFullscreen(point),
    showConsultant: showConsultant(point),
    showClaimLink: showClaimLink(point),
    claimText: showClaimText(point),
    showBecomeConsultant: showBecomeConsultant(point),
    canStopConsulting: canStopConsulting(viewer, point),
    canDismissConsultant: canDismissConsultant(viewer, point),
    canAnswerConsultantRequests: canAnswerConsultantRequests(viewer, point),
    claimPending: role === 'claimant',
    consultRequestPending: role === 'requester',
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
