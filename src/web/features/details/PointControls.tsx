import { lazy, Suspense, useSyncExternalStore } from 'react';
import { withCurrentSuccessUrl } from '../owner/returnPath';
import { inAppLink } from './inAppLink';
import type { PointControlLinks } from './schemas';

/** The owner's list of requests to consult loads only for owners (it brings its calls along). */
const ConsultantRequests = lazy(() =>
  import('./ConsultantRequests').then((m) => ({ default: m.ConsultantRequests })),
);

/**
 * The address bar's path and query, read on each render: the app's router re-renders the controls
 * whenever it changes, so there is nothing to subscribe to. There is none on the server.
 */
const noSubscription = () => () => {};
const currentPath = () => `${window.location.pathname}${window.location.search}`;
const serverPath = () => null;

/**
 * The point's controls (map-and-search §6) as links to their routes, as the API gives them for this
 * viewer: edit, delete, copy to new, add a child event, invite reviews for its controllers; claim and
 * become consultant for everyone when the point has no owner or consultant; stop consulting for its
 * consultant. A control the API answers null for is not shown. Delete and stop consulting lead to
 * pages that ask first (§5: the confirmation), src/web/features/owner/ActionPanel.tsx. Inside the app
 * `open` opens them as its next level, so the map keeps its place.
 */
export function PointControls({
  controls,
  supertype,
  owned,
  pointId,
  open,
}: {
  controls: PointControlLinks;
  supertype: string;
  /** an owned point's consultant is the owner's choice: the offer is a request (issue 16) */
  owned: boolean;
  pointId: string;
  open?: (to: string) => void;
}) {
  // edit, delete and copy return to where the visitor is now, a result list say (§2, issue 21 item 11);
  // on the server (the full-screen page) and while hydrating, the links are the API's own
  const here = useSyncExternalStore(noSubscription, currentPath, serverPath);
  const back = (href: string, isDelete = false) =>
    here === null ? href : withCurrentSuccessUrl(href, here, pointId, isDelete);
  const manage = [
    controls.edit && { href: back(controls.edit), label: 'Edit' },
    controls.delete && { href: back(controls.delete, true), label: 'Delete', danger: true },
    controls.copy_to_new && { href: back(controls.copy_to_new), label: 'Copy to new' },
    controls.add_child_event && { href: controls.add_child_event, label: 'Add an event' },
    controls.invite_review && { href: controls.invite_review, label: 'Invite reviews' },
    controls.stop_consulting && { href: controls.stop_consulting, label: 'Stop consulting' },
    controls.dismiss_consultant && {
      href: controls.dismiss_consultant,
      label: 'Remove consultant',
      danger: true,
    },
  ].filter((item) => !!item);
  const offers = [
    controls.claim && { href: controls.claim, label: 'Claim this XPoint' },
    controls.become_consultant && {
      href: controls.become_consultant,
      label: owned ? 'Request to consult' : 'Become a consultant',
    },
  ].filter((item) => !!item);
  // what the viewer waits for replaces the offer it came from
  const waiting: string[] = [
    ...(controls.claim_pending ? ['Verification pending: our team checks your claim.'] : []),
    ...(controls.consult_request_pending ? ['Request sent — waiting for the owner.'] : []),
  ];
  if (manage.length === 0 && offers.length === 0 && waiting.length === 0 && !controls.consultant_requests)
    return null;
  return (
    <div className="point-controls">
      {manage.length > 0 && (
        <nav className="point-controls__manage" aria-label="Manage this XPoint">
          {manage.map((item) => (
            <a
              key={item.label}
              href={item.href}
              className={'danger' in item ? 'xp-button point-controls__danger' : 'xp-button'}
              onClick={inAppLink(item.href, open)}
            >
              {item.label}
            </a>
          ))}
        </nav>
      )}
      {controls.consultant_requests && (
        <Suspense fallback={null}>
          <ConsultantRequests pointId={pointId} />
        </Suspense>
      )}
      {waiting.map((text) => (
        <p key={text} className="point-controls__pending" role="status">
          {text}
        </p>
      ))}
      {offers.length > 0 && (
        <div className="point-controls__offers">
          {controls.claim && controls.claim_text && (
            <p className="point-controls__claim-text">
              Is this your {supertype === 'rental' ? 'rental' : 'experience'}? Claim it to edit its details,
              answer guests and take bookings.
            </p>
          )}
          {offers.map((item) => (
            <a key={item.label} href={item.href} className="link-button" onClick={inAppLink(item.href, open)}>
              {item.label}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
