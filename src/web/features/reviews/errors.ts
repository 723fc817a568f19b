import {
  REVIEWS_EMPTY_ANSWER,
  REVIEWS_EMPTY_ANSWER_CODE,
  reviewsInvalidAppMessage,
  reviewsLoadFailure,
} from '../../../shared/api/reviews';
import { API_ERROR_CODES, ApiError } from '../../lib/api';
import { errorText } from '../../lib/query';

/**
 * Social §8's texts for a reviews page that did not load: an empty or unreadable answer is 447, a
 * missing or malformed point id the client's '[loadReviews] action failed! ERR: 6705: …', anything
 * else 'Error load Reviews (110933:), server error: …' with the server's text.
 */
export function reviewsErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === API_ERROR_CODES.unreadable && error.status < 300)
    return `${REVIEWS_EMPTY_ANSWER} (${REVIEWS_EMPTY_ANSWER_CODE})`;
  if (error instanceof ApiError && error.code === 6705)
    return reviewsInvalidAppMessage(`${error.code}: ${error.message}`);
  return reviewsLoadFailure(errorText(error));
}
