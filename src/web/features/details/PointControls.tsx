import type { MouseEvent } from 'react';
import type { PointControlLinks } from './schemas';

/** §5: delete and stop-consulting ask first. */
export const CONFIRM_DELETE = 'Delete this XPoint? This cannot be undone.';
export const CONFIRM_STOP_CONSULTING = 'Stop consulting this XPoint?';

/** A link that goes only once the viewer confirmed. */
function confirmFirst(question: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (!window.confirm(question)) event.preventDefault();
  };
}

/**
 * The point's controls (map-and-search §6) as links to their routes, as the API gives them for this
 * viewer: edit, delete, copy to new, add a child event, invite reviews for its controllers; claim and
 * become consultant for everyone when the point has no owner or consultant; stop consulting for its
 * consultant. A control the API answers null for is not shown.
 */
export function PointControls({ controls, supertype }: { controls: PointControlLinks; supertype: string }) {
  const manage = [
    controls.edit && { href: controls.edit, label: 'Edit' },
    controls.delete && {
      href: controls.delete,
      label: 'Delete',
      danger: true,
      onClick: confirmFirst(CONFIRM_DELETE),
    },
    controls.copy_to_new && { href: controls.copy_to_new, label: 'Copy to new' },
    controls.add_child_event && { href: controls.add_child_event, label: 'Add an event' },
    controls.invite_review && { href: controls.invite_review, label: 'Invite reviews' },
    controls.stop_consulting && {
      href: controls.stop_consulting,
      label: 'Stop consulting',
      onClick: confirmFirst(CONFIRM_STOP_CONSULTING),
    },
  ].filter((item) => !!item);
  const offers = [
    controls.claim && { href: controls.claim, label: 'Claim this XPoint' },
    controls.become_consultant && { href: controls.become_consultant, label: 'Become a consultant' },
  ].filter((item) => !!item);
  if (manage.length === 0 && offers.length === 0) return null;
  return (
    <div className="point-controls">
      {manage.length > 0 && (
        <nav className="point-controls__manage" aria-label="Manage this XPoint">
          {manage.map((item) => (
            <a
              key={item.label}
              href={item.href}
              className={'danger' in item ? 'xp-button point-controls__danger' : 'xp-button'}
              onClick={'onClick' in item ? item.onClick : undefined}
            >
              {item.label}
            </a>
          ))}
        </nav>
      )}
      {offers.length > 0 && (
        <div className="point-controls__offers">
          {controls.claim && controls.claim_text && (
            <p className="point-controls__claim-text">
              Is this your {supertype === 'rental' ? 'rental' : 'experience'}? Claim it to edit its details,
              answer guests and take bookings.
            </p>
          )}
          {offers.map((item) => (
            <a key={item.label} href={item.href} className="link-button">
              {item.label}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
