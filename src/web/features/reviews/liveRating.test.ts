import { describe, expect, it } from 'vitest';
import { ratingOfChange } from './ratingChange';

describe('the rating line after a reviews change event', () => {
  it('shows the new average /20 with one decimal and the count', () => {
    const change = {
      actionType: 'add',
      actionRating: 3,
      reviewid: 'r1',
      avgRating: 4,
      avgRatingPercent: 80,
      reviewsCount: 3,
    };
    expect(ratingOfChange(change)).toEqual({ rating_display: '4.0', rating_count: 3 });
    // as the point's details write it (formatRating), so a refetch after the event shows the same
    expect(ratingOfChange({ ...change, avgRatingPercent: 74, reviewsCount: 3 })).toEqual({
      rating_display: '3.7',
      rating_count: 3,
    });
  });

  it('shows no rating once the last review is deleted', () => {
    expect(
      ratingOfChange({
        actionType: 'delete',
        actionRating: 5,
        reviewid: 'r1',
        avgRating: 0,
        avgRatingPercent: 0,
        reviewsCount: 0,
      }),
    ).toEqual({ rating_display: null, rating_count: 0 });
  });

  it('ignores what is not a reviews change', () => {
    expect(ratingOfChange({ up: 1, down: 0 })).toBeNull();
    expect(ratingOfChange(null)).toBeNull();
  });
});
