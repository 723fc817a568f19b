import { describe, expect, test } from 'vitest';
import { formatDate, formatDistance, formatFileSize, padCityOption } from './index';

describe('formatDistance', () => {
  test('shows feet up to 805 m and miles above, as §9 says', () => {
    expect(formatDistance(0)).toBe('0 ft');
    expect(formatDistance(100)).toBe('328 ft');
    expect(formatDistance(805)).toBe('2640 ft');
    expect(formatDistance(806)).toBe('0.5 mi');
    expect(formatDistance(16_093.4)).toBe('10.0 mi');
  });
  test('shows nothing for a distance that is not one', () => {
    expect(formatDistance(Number.NaN)).toBe('');
    expect(formatDistance(-3)).toBe('');
  });
});

describe('formatDate', () => {
  test("writes 'DD MMM YYYY HH:mm (A)' in the zone given", () => {
    const at = Date.UTC(2026, 2, 7, 18, 5);
    expect(formatDate(at, 'UTC')).toBe('07 Mar 2026 18:05 (PM)');
    expect(formatDate(at, 'Asia/Tokyo')).toBe('08 Mar 2026 03:05 (AM)');
    expect(formatDate(Date.UTC(2026, 8, 1, 0, 0), 'UTC')).toBe('01 Sep 2026 00:00 (AM)');
    expect(formatDate(Date.UTC(2026, 11, 31, 12, 0), 'UTC')).toBe('31 Dec 2026 12:00 (PM)');
  });
  test('shows nothing for a missing time', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('formatFileSize', () => {
  test('shows Kb below 1 MB and Mb with one decimal from there', () => {
    expect(formatFileSize(0)).toBe('0 Kb');
    expect(formatFileSize(200)).toBe('1 Kb');
    expect(formatFileSize(348_160)).toBe('340 Kb');
    expect(formatFileSize(1024 * 1024)).toBe('1.0 Mb');
    expect(formatFileSize(2.44 * 1024 * 1024)).toBe('2.4 Mb');
  });
});

describe('padCityOption', () => {
  test('pads a city option to 30 characters and leaves longer ones whole', () => {
    expect(padCityOption('Lyon, France')).toHaveLength(30);
    expect(padCityOption('Lyon, France').trimEnd()).toBe('Lyon, France');
    const long = 'Llanfairpwllgwyngyll, Wales, United Kingdom';
    expect(padCityOption(long)).toBe(long);
  });
});
