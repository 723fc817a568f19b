import { useEffect, useRef, useState } from 'react';
import { REVIEWS_LIVE_KIND, reviewsChangeSchema } from '../../../shared/api/reviews';
import { socialTopic } from '../../../shared/api/social-live';
import { formatRating } from '../../../shared/details/numbers';

/** What a rating line shows: map-and-search §3's average/20 with one decimal, and the count. */
export interface RatingLine {
  rating_display?: string | null | undefined;
  rating_count: number;
}

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

/**
 * The point's rating as it stands now: what the page was given, then each reviews change heard on
 * `social:X:{id}` (the change event carries the new average and count, so nothing is fetched). When
 * the page is given newer values (the panel fetches the details again) those show. Listens only in the
 * browser, after hydration (an effect), so the server's markup and the first render agree; the live
 * client (phoenix) is imported then, which keeps it out of the full-screen page's first script.
 */
export function useLiveRating<P extends RatingLine & { id: string }>(point: P): P {
  const given = `${point.id}|${point.rating_display ?? ''}|${point.rating_count}`;
  const latestGiven = useRef(given);
  const [heard, setHeard] = useState<{ given: string; line: Required<RatingLine> } | null>(null);
  useEffect(() => {
    latestGiven.current = given;
  }, [given]);
  useEffect(() => {
    let leave: (() => void) | undefined;
    let left = false;
    void import('../../live/socialTopic').then(({ subscribeSocialTopic }) => {
      if (left) return;
      leave = subscribeSocialTopic(socialTopic('X', point.id), (message) => {
        if (message.kind !== REVIEWS_LIVE_KIND) return;
        const line = ratingOfChange(message.data);
        if (line) setHeard({ given: latestGiven.current, line });
      });
    });
    return () => {
      left = true;
      leave?.();
    };
  }, [point.id]);
  return heard !== null && heard.given === given ? { ...point, ...heard.line } : point;
}
