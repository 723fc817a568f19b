import type { VitalName } from '../../../shared/api/vitals';

/**
 * The value buckets real-user timings are counted in: a log scale with 5% steps, so any percentile
 * read back is within 2.5% of the true one, whatever the number of page views, in a few hundred rows
 * per screen and metric at most. Bucket 0 holds zero (and anything under one unit); bucket b ≥ 1
 * holds [1.05^(b-1), 1.05^b). Timings count in milliseconds; CLS, which has no unit and lives between
 * 0 and 1, counts in ten-thousandths.
 */
const STEP = 1.05;
const LOG_STEP = Math.log(STEP);

const scaleOf = (name: VitalName) => (name === 'CLS' ? 10_000 : 1);

export function bucketOf(name: VitalName, value: number): number {
  const scaled = value * scaleOf(name);
  if (scaled < 1) return 0;
  return Math.floor(Math.log(scaled) / LOG_STEP) + 1;
}

/** The value a bucket stands for: the geometric middle of its bounds (0 for bucket 0). */
export function valueOfBucket(name: VitalName, bucket: number): number {
  if (bucket <= 0) return 0;
  return STEP ** (bucket - 0.5) / scaleOf(name);
}

/**
 * The q-quantile (0 < q ≤ 1) of counted buckets, as the value of the bucket holding the
 * ceil(q·n)-th smallest view: `counts` sorted by bucket.
 */
export function quantile(
  name: VitalName,
  counts: readonly { bucket: number; count: number }[],
  q: number,
): number {
  const total = counts.reduce((sum, row) => sum + row.count, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const row of counts) {
    seen += row.count;
    if (seen >= rank) return valueOfBucket(name, row.bucket);
  }
  return valueOfBucket(name, counts[counts.length - 1]?.bucket ?? 0);
}
