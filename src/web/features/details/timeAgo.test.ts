import { describe, expect, test } from 'vitest';
import { timeAgo } from './format';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('timeAgo: when a claim was made, in words', () => {
  test.each([
    [0, 'just now'],
    [-5_000, 'just now'],
    [59_000, 'just now'],
    [MINUTE, '1 minute ago'],
    [45 * MINUTE, '45 minutes ago'],
    [3 * HOUR + 10 * MINUTE, '3 hours ago'],
    [DAY + HOUR, 'yesterday'],
    [3 * DAY, '3 days ago'],
    [15 * DAY, '2 weeks ago'],
    [70 * DAY, '2 months ago'],
    [800 * DAY, '2 years ago'],
  ])('%i ms ago reads %s', (ago, text) => {
    expect(timeAgo(NOW - ago, NOW)).toBe(text);
  });
});
