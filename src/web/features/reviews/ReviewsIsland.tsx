import { lazy } from 'react';
import { Island } from '../../ui/Island';
import type { RatedPoint } from './PointReviews';

/**
 * The full-screen page's reviews block. The server renders the rating as text; in the browser, once
 * the page is hydrated and the block comes near the screen, it becomes the rating link that opens the
 * Reviews modal, with its own query client and session when the page has none.
 */
const StandaloneReviews = lazy(() => import('./StandaloneReviews'));
export function ReviewsIsland({ point }: { point: RatedPoint }) {
  const text =
    point.rating_display && point.rating_count > 0 ? (
      <p>
        Rated <strong>{point.rating_display}</strong> out of 5 from {point.rating_count}{' '}
        {point.rating_count === 1 ? 'review' : 'reviews'}.
      </p>
    ) : (
      <p className="empty-note">No reviews yet.</p>
    );
  return (
    <Island placeholder={text}>
      <StandaloneReviews point={point} />
    </Island>
  );
}
