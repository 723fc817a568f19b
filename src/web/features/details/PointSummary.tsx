import { lazy, Suspense, type ReactNode } from 'react';
import type { OpeningHoursText } from '../../../shared/details/hours-text';
import { OpenNowBadge } from './PointSections';
import type { PointDetails } from './schemas';

/** The modal loads when someone asks for a callback. */
const CallbackModal = lazy(() =>
  import('./CallbackModal').then((module) => ({ default: module.CallbackModal })),
);

/**
 * Under the media: the category (its name, which the caller looks up), the rating (§3: average/20,
 * one decimal), the tagline and open-now.
 */
export function PointSummary({
  point,
  category,
  rating,
  hoursText,
}: {
  point: PointDetails;
  category: string;
  /** the rating line when the page has one of its own (the panel's link to the reviews, issue 18) */
  rating?: ReactNode;
  /** the server's wording of the opening hours, when the page carries it */
  hoursText?: OpeningHoursText | null;
}) {
  return (
    <div className="point-panel__head">
      <p className="point-panel__type">{category}</p>
      {rating}
      {rating === undefined && point.rating_display && (
        <p className="point-panel__rating">
          <span aria-hidden="true">★</span>{' '}
          <span className="point-panel__rating-value">{point.rating_display}</span>
          <span className="point-panel__muted">
            {' '}
            / 5 · {point.rating_count} {point.rating_count === 1 ? 'review' : 'reviews'}
          </span>
        </p>
      )}
      {point.tagline && <p className="point-panel__tagline">{point.tagline}</p>}
      {point.opening_hours && <OpenNowBadge hours={point.opening_hours} text={hoursText} />}
    </div>
  );
}

/**
 * The main actions: request a callback from a service (not its own owner), chat, book a rental. `chat`
 * is the page's own Chat control: the panel's needs the session and the router, the full-screen page's
 * is a plain link, so the full-screen page's first script carries neither.
 */
export function PointActions({
  point,
  onCallback,
  chat,
}: {
  point: PointDetails;
  onCallback(): void;
  chat: ReactNode;
}) {
  const isOwner = point.permissions?.isOwner ?? false;
  return (
    <>
      {point.supertype === 'service' && !isOwner && (
        <button type="button" className="xp-button xp-button--primary" onClick={onCallback}>
          Request a callback
        </button>
      )}
      {chat}
      {point.controls?.book && (
        <a className="xp-button xp-button--primary" href={point.controls.book}>
          Book
        </a>
      )}
    </>
  );
}

/** The request-callback modal (§2, §8) aimed at the point's provider. */
export function PointCallback({ point, onClose }: { point: PointDetails; onClose(): void }) {
  return (
    <Suspense fallback={null}>
      <CallbackModal
        target={{
          toUserId: point.owner_userid,
          serviceName: point.xpointService ?? point.title,
          xpointId: point.id,
        }}
        onClose={onClose}
      />
    </Suspense>
  );
}
