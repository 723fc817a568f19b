import { describe, expect, it } from 'vitest';
import { CLSThresholds, FCPThresholds, INPThresholds, LCPThresholds, TTFBThresholds } from 'web-vitals';
import { VITAL_THRESHOLDS, ratingOf } from '../../../shared/api/vitals';
import { bucketOf, quantile, valueOfBucket } from './buckets';

describe('the value buckets', () => {
  it.each([1, 7, 99.5, 2500, 123_456, 600_000])(
    'given a timing of %s ms, when bucketed, then the bucket stands for it within 2.5 percent',
    (value) => {
      const back = valueOfBucket('LCP', bucketOf('LCP', value));
      expect(Math.abs(back - value) / value).toBeLessThanOrEqual(0.025);
    },
  );

  it('given layout shifts, when bucketed, then 0 stays 0 and 0.1 reads back within 2.5%', () => {
    expect(valueOfBucket('CLS', bucketOf('CLS', 0))).toBe(0);
    expect(Math.abs(valueOfBucket('CLS', bucketOf('CLS', 0.1)) - 0.1) / 0.1).toBeLessThanOrEqual(0.025);
  });

  it('given counts, when the 75th percentile is read, then it is the bucket of the ceil(0.75 n)-th value', () => {
    const counts = [100, 200, 300, 400].map((value) => ({ bucket: bucketOf('INP', value), count: 1 }));
    expect(Math.abs(quantile('INP', counts, 0.75) - 300) / 300).toBeLessThanOrEqual(0.025);
    expect(quantile('INP', [], 0.75)).toBe(0);
  });
});

describe('the ratings', () => {
  it("given web.dev's bounds, when compared, then they are web-vitals' own", () => {
    expect(VITAL_THRESHOLDS).toEqual({
      LCP: LCPThresholds,
      FCP: FCPThresholds,
      CLS: CLSThresholds,
      INP: INPThresholds,
      TTFB: TTFBThresholds,
    });
  });

  it('given values on and past the bounds, when rated, then good is inclusive and poor begins past the second', () => {
    expect(ratingOf('LCP', 2500)).toBe('good');
    expect(ratingOf('LCP', 2501)).toBe('needs-improvement');
    expect(ratingOf('LCP', 4000)).toBe('needs-improvement');
    expect(ratingOf('LCP', 4001)).toBe('poor');
  });
});
