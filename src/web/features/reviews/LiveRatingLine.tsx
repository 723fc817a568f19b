import { useLiveRating, type RatingLine } from './liveRating';

/**
 * The rating under a point's name on the full-screen page (map-and-search §3: ★ 4.3 / 5 · 12 reviews),
 * the same markup the summary draws, following the point's reviews live once the page is hydrated:
 * the first review makes it appear, a deletion of the last one takes it away.
 */
export function LiveRatingLine({ point }: { point: RatingLine & { id: string } }) {
  const shown = useLiveRating(point);
  if (!shown.rating_display || shown.rating_count < 1) return null;
  return (
    <p className="point-panel__rating">
      <span aria-hidden="true">★</span>{' '}
      <span className="point-panel__rating-value">{shown.rating_display}</span>
      <span className="point-panel__muted">
        {' '}
        / 5 · {shown.rating_count} {shown.rating_count === 1 ? 'review' : 'reviews'}
      </span>
    </p>
  );
}
