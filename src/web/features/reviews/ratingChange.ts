import { REVIEWS_LIVE_KIND, reviewsChangeSchema } from '../../../shared/api/reviews';
import { formatRating } from '../../../shared/details/numbers';
import type { RatingLine } from './liveRating';

export { REVIEWS_LIVE_KIND };

/** The rating line after a reviews change event (social §3), or null when the data is not one. */
export function ratingOfChange(data: unknown): Required<RatingLine> | null {
  const change = reviewsChangeSchema.safeParse(data);
  if (!change.success) return null;
  const { reviewsCount, avgRatingPercent } = change.data;
  return {
    rating_count: reviewsCount,
    rating_display: reviewsCount > 0 ? formatRating(avgRatingPercent) : null,
  };
}
