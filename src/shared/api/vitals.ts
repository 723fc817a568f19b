import { z } from 'zod';
import { domainIssue } from './contract';

/**
 * Real-user timings (issue 23): each page reports its own Core Web Vitals, measured by `web-vitals` in
 * the visitor's browser, and the server keeps them as counts per day, screen, metric and value bucket,
 * so the README's laboratory figures can be checked against what visitors meet on a live deployment.
 *
 *   POST /v1/webonly/vitals  {page, metrics: [{name, value}]}  → 202 {recorded}
 *   GET  /v1/webonly/vitals?days=28                            → 200 {days, screens: [...]}
 *
 * The page's address is reduced on the server to its screen ("point", "fullscreen", "map"...), so no
 * id, keyword or person is ever stored: only how fast each kind of screen was, as CrUX keeps it.
 */
import {
  MAX_METRICS_PER_REPORT,
  MAX_VITALS_DAYS,
  DEFAULT_VITALS_DAYS,
  VITAL_MAX,
  VITAL_NAMES,
} from '../vitals';

export {
  DEFAULT_VITALS_DAYS,
  MAX_METRICS_PER_REPORT,
  MAX_VITALS_DAYS,
  VITAL_MAX,
  VITAL_NAMES,
  VITAL_THRESHOLDS,
  VITALS_PATH,
  ratingOf,
  type VitalName,
  type VitalRating,
} from '../vitals';

const vitalSchema = z
  .object({
    name: z.enum(VITAL_NAMES),
    value: z.number().finite().nonnegative(),
  })
  .superRefine((metric, context) => {
    const max = VITAL_MAX[metric.name];
    if (metric.value > max)
      context.addIssue(domainIssue('vitalOutOfRange', { name: metric.name, max }, ['value']));
  });

export const vitalsReportSchema = z.object({
  page: z
    .string()
    .min(1)
    .max(2048)
    .regex(/^\//, 'must be the page path, starting with /')
    .meta({ description: "the page's path (location.pathname); the server keeps only its screen" }),
  metrics: z.array(vitalSchema).min(1).max(MAX_METRICS_PER_REPORT),
});
export type VitalsReport = z.infer<typeof vitalsReportSchema>;

export const vitalsRecordedSchema = z.object({
  recorded: z.number().int().meta({ description: 'how many metrics were counted' }),
  screen: z.string().meta({ description: 'the screen the page was counted under' }),
});

export const vitalsQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_VITALS_DAYS)
    .default(DEFAULT_VITALS_DAYS)
    .meta({ description: `the last N days, today (UTC) included; 1 to ${MAX_VITALS_DAYS}` }),
});

const metricSummarySchema = z.object({
  name: z.enum(VITAL_NAMES),
  count: z.number().int(),
  p50: z.number(),
  p75: z.number().meta({ description: "the 75th percentile, Google's figure for a page (within 2.5%)" }),
  p95: z.number(),
  good: z.number().meta({ description: 'the share of page views rated good, 0 to 1' }),
  needs_improvement: z.number(),
  poor: z.number(),
});
export type MetricSummary = z.infer<typeof metricSummarySchema>;

export const vitalsSummarySchema = z.object({
  days: z.number().int(),
  since: z.string().meta({ description: 'the first day counted (UTC, YYYY-MM-DD)' }),
  screens: z.array(z.object({ screen: z.string(), metrics: z.array(metricSummarySchema) })),
});
export type VitalsSummary = z.infer<typeof vitalsSummarySchema>;
