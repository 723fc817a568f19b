import { describe, expect, it } from 'vitest';
import { ApiError, API_ERROR_CODES } from '../../lib/api';
import { reviewsErrorText } from './errors';

describe('the reviews modal’s error texts (social §5, §8)', () => {
  it('says 447 for an empty or unreadable answer', () => {
    const empty = new ApiError(API_ERROR_CODES.unreadable, 'Server returned EMPTY/Invalid response!', 200);
    expect(reviewsErrorText(empty)).toBe('Server Returned Invalid response! (Null/Empty). (447)');
  });
  it('prints a bad point id as the client does', () => {
    const bad = new ApiError(6705, 'Param [xpointId] is invalid!', 400, 'appid');
    expect(reviewsErrorText(bad)).toBe(
      '[loadReviews] action failed! ERR: 6705: Param [xpointId] is invalid!',
    );
  });
  it('wraps any other failure in 110933 with the server’s text', () => {
    const down = new ApiError(1503, 'The store is not answering.', 503);
    expect(reviewsErrorText(down)).toBe(
      'Error load Reviews (110933:), server error: The store is not answering.',
    );
    const offline = new ApiError(0, 'Internet Connection lost or server is not responding!', 0);
    expect(reviewsErrorText(offline)).toContain('(110933:)');
  });
});
