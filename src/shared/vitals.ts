/**
 * Real-user timings (issue 23): the metrics, their bounds and the call's path, without zod, so the
 * browser's reporter (src/web/lib/vitals.ts) carries none of the contract's code. The contract is
 * ../api/vitals.ts.
 */
export const VITALS_PATH = '/v1/webonly/vitals';

export const VITAL_NAMES = ['LCP', 'FCP', 'CLS', 'INP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

/**
 * The "good" and "poor" bounds of each metric (web.dev's, the same as web-vitals' own thresholds:
 * vitals.test.ts compares them): good ≤ first, poor > second. Milliseconds but CLS, which has no unit.
 */
export const VITAL_THRESHOLDS: Readonly<Record<VitalName, readonly [good: number, poor: number]>> = {
  LCP: [2500, 4000],
  FCP: [1800, 3000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  TTFB: [800, 1800],
};

/** The largest value taken: ten minutes for a timing, 100 for a layout shift (far past "poor"). */
export const VITAL_MAX: Readonly<Record<VitalName, number>> = {
  LCP: 600_000,
  FCP: 600_000,
  CLS: 100,
  INP: 600_000,
  TTFB: 600_000,
};

export type VitalRating = 'good' | 'needs-improvement' | 'poor';

export function ratingOf(name: VitalName, value: number): VitalRating {
  const [good, poor] = VITAL_THRESHOLDS[name];
  return value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
}

/** One report carries each metric of one page view at most a few times (CLS and INP again on return). */
export const MAX_METRICS_PER_REPORT = 10;
export const MAX_VITALS_DAYS = 90;
export const DEFAULT_VITALS_DAYS = 28;
