import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { RatedPoint } from './PointReviews';

/**
 * The full-screen page's reviews block. The server renders the rating as text; in the browser,
 * after hydration (the server snapshot keeps the first render equal), it becomes the rating link
 * that opens the Reviews modal, with its own query client and session when the page has none.
 */
const StandaloneReviews = lazy(() => import('./StandaloneReviews'));
const noSubscription = () => () => undefined;

export function ReviewsIsland({ point }: { point: RatedPoint }) {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const text =
    point.rating_display && point.rating_count > 0 ? (
      <p>
        Rated <strong>{point.rating_display}</strong> out of 5 from {point.rating_count}{' '}
        {point.rating_count === 1 ? 'review' : 'reviews'}.
      </p>
    ) : (
      <p className="empty-note">No reviews yet.</p>
    );
  if (!inBrowser) return text;
  return (
    <Suspense fallback={text}>
      <StandaloneReviews point={point} />
    </Suspense>
  );
}
