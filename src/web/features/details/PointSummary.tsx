import { lazy, Suspense, type ReactNode } from 'react';
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
}: {
  point: PointDetails;
  category: string;
  /** the rating line when the page has one of its own (the panel's link to the reviews, issue 18) */
  rating?: ReactNode;
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
      {point.opening_hours && <OpenNowBadge hours={point.opening_hours} />}
    </div>
  );
}

/** The main actions: request a callback from a service (not its own owner), book a rental. */
export function PointActions({ point, onCallback }: { point: PointDetails; onCallback(): void }) {
  const isOwner = point.permissions?.isOwner ?? false;
  return (
    <>
      {point.supertype === 'service' && !isOwner && (
        <button type="button" className="xp-button xp-button--primary" onClick={onCallback}>
          Request a callback
        </button>
      )}
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
