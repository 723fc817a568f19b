import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { MAX_RETRIES, shouldRetry } from './query';

describe('shouldRetry', () => {
  it('tries again after no answer or a server failure, at most twice', () => {
    const offline = new ApiError(0, 'Internet Connection lost or server is not responding!', 0);
    const failing = new ApiError(-1, 'Status 503. Network/Server error.', 503);
    expect([0, 1, 2].map((count) => shouldRetry(count, offline))).toEqual([true, true, false]);
    expect([0, 1, 2].map((count) => shouldRetry(count, failing))).toEqual([true, true, false]);
    expect(MAX_RETRIES).toBe(2);
  });

  it('never repeats a refusal or an answer that did not fit its contract', () => {
    expect(shouldRetry(0, new ApiError(1010, 'Unauthorized', 401))).toBe(false);
    expect(shouldRetry(0, new ApiError(2001, 'Not found', 404))).toBe(false);
    expect(shouldRetry(0, new ApiError(-1, 'Server returned EMPTY/Invalid response!', 200))).toBe(false);
    expect(shouldRetry(0, new TypeError('x is undefined'))).toBe(false);
  });
});
