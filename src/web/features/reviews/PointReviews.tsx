import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import {
  REVIEWS_LIVE_KIND,
  REVIEW_INVITE_VALUE,
  REVIEW_OPEN_PARAM,
  REVIEW_OPEN_VALUE,
} from '../../../shared/api/reviews';
import { socialTopic, type SocialLiveMessage } from '../../../shared/api/social-live';
import { useSocialTopic } from '../../live/socialTopic';
import { useLiveRating } from './liveRating';
import { refreshReviews } from './reviewsApi';
import { takeWriting } from './writeIntent';

/** The modal, its form and lists load when first opened. */
const ReviewsModal = lazy(() =>
  import('./ReviewsModal').then((module) => ({ default: module.ReviewsModal })),
);

export interface RatedPoint {
  id: string;
  title: string;
  rating_display?: string | null | undefined;
  rating_count: number;
}

/** What the address asks for: `?review=open` the form (the invite link), `?review=invite` the invite box. */
function reviewFlag(): Opened | null {
  const value = new URLSearchParams(window.location.search).get(REVIEW_OPEN_PARAM);
  if (value === REVIEW_OPEN_VALUE) return { write: true, invite: false };
  if (value === REVIEW_INVITE_VALUE) return { write: false, invite: true };
  return null;
}

interface Opened {
  write: boolean;
  invite: boolean;
}

/** The address without the flag: opening the form is done once, not on every back and forward. */
function withoutFlag(): string {
  const params = new URLSearchParams(window.location.search);
  params.delete(REVIEW_OPEN_PARAM);
  const search = params.toString();
  return `${window.location.pathname}${search ? `?${search}` : ''}`;
}

/**
 * The point's rating line on its panel (map-and-search §3: average/20 with one decimal) as the link
 * "n reviews" that opens the reviews modal, or "Write a review" when it has none. While shown, it
 * hears the point's reviews changes (social §3, topic `social:X:{id}`) and refreshes the point and
 * its reviews, so a review written in another browser moves this rating without a reload. The invite
 * link's `?review=open` opens the modal with the form ready, then leaves the address.
 */
export function PointReviews({
  point,
  replaceAddress,
  sentence = false,
}: {
  point: RatedPoint;
  /** the full-screen page's wording: "Rated 4.5 out of 5 from 2 reviews." */
  sentence?: boolean;
  /** replaces the address in place (the shell's navigation), to drop the invite flag */
  replaceAddress?: (to: string) => void;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState<Opened | null>(
    () => reviewFlag() ?? (takeWriting(point.id) ? { write: true, invite: false } : null),
  );
  useEffect(() => {
    if (reviewFlag()) replaceAddress?.(withoutFlag());
  }, [replaceAddress]);

  const onMessage = useCallback(
    (message: SocialLiveMessage) => {
      if (message.kind === REVIEWS_LIVE_KIND) void refreshReviews(client, point.id);
    },
    [client, point.id],
  );
  useSocialTopic(socialTopic('X', point.id), onMessage);
  // the line follows the change event at once; the refresh above brings the details and reviews
  const shown = useLiveRating(point);

  const count = shown.rating_count;
  const openReviews = () => setOpen({ write: false, invite: false });
  const openForm = () => setOpen({ write: true, invite: false });
  const modal = open && (
    <Suspense fallback={null}>
      <ReviewsModal point={point} write={open.write} invite={open.invite} onClose={() => setOpen(null)} />
    </Suspense>
  );
  if (sentence)
    return (
      <>
        {shown.rating_display && count > 0 ? (
          <p className="reviews-rating">
            Rated <strong>{shown.rating_display}</strong> out of 5 from{' '}
            <button type="button" className="link-button" onClick={openReviews}>
              {count} {count === 1 ? 'review' : 'reviews'}
            </button>
            .
          </p>
        ) : (
          <p className="reviews-rating">
            No reviews yet.{' '}
            <button type="button" className="link-button" onClick={openForm}>
              Write a review
            </button>
          </p>
        )}
        {modal}
      </>
    );
  return (
    <>
      <p className="point-panel__rating reviews-rating">
        {shown.rating_display && count > 0 ? (
          <>
            <span aria-hidden="true">★</span>{' '}
            <span className="point-panel__rating-value">{shown.rating_display}</span>
            <span className="point-panel__muted"> / 5 · </span>
            <button type="button" className="link-button" onClick={openReviews}>
              {count} {count === 1 ? 'review' : 'reviews'}
            </button>
          </>
        ) : (
          <>
            <span className="point-panel__muted">No reviews yet · </span>
            <button type="button" className="link-button" onClick={openForm}>
              Write a review
            </button>
          </>
        )}
      </p>
      {modal}
    </>
  );
}
