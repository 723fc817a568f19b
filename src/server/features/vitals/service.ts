import { sql } from 'kysely';
import {
  VITAL_NAMES,
  ratingOf,
  type MetricSummary,
  type VitalName,
  type VitalsReport,
  type VitalsSummary,
} from '../../../shared/api/vitals';
import type { Store } from '../../store/store';
import { bucketOf, quantile } from './buckets';
import { screenOf } from './screen';

/** Days kept: the summary reads at most 90; older rows are deleted once an hour. */
const KEEP_DAYS = 90;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Counts real-user timings (issue 23) in the store, so every process behind a load balancer adds to
 * the same figures and a restart loses none: one upsert per report, the report's metrics summed by
 * key first (one statement may not touch a row twice on PostgreSQL).
 */
export class VitalsService {
  private prunedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async record(report: VitalsReport): Promise<{ screen: string; recorded: number }> {
    const screen = screenOf(report.page);
    const day = dayOf(this.now());
    const rows = new Map<string, { metric: VitalName; rating: string; bucket: number; count: number }>();
    for (const { name, value } of report.metrics) {
      const rating = ratingOf(name, value);
      const bucket = bucketOf(name, value);
      const key = `${name}|${rating}|${bucket}`;
      const row = rows.get(key);
      if (row) row.count += 1;
      else rows.set(key, { metric: name, rating, bucket, count: 1 });
    }
    await this.store.db
      .insertInto('web_vitals')
      .values([...rows.values()].map((row) => ({ day, screen, ...row })))
      .onConflict((oc) =>
        oc
          .columns(['day', 'screen', 'metric', 'rating', 'bucket'])
          .doUpdateSet({ count: sql<number>`web_vitals.count + excluded.count` }),
      )
      .execute();
    await this.pruneNowAndThen();
    return { screen, recorded: report.metrics.length };
  }

  /** The last `days` days (today, UTC, included), per screen and metric, screens by page views. */
  async summary(days: number): Promise<VitalsSummary> {
    const since = dayOf(this.now() - (days - 1) * DAY_MS);
    const rows = await this.store.db
      .selectFrom('web_vitals')
      .where('day', '>=', since)
      .select(['screen', 'metric', 'rating', 'bucket', (eb) => eb.fn.sum<number>('count').as('count')])
      .groupBy(['screen', 'metric', 'rating', 'bucket'])
      .orderBy('screen')
      .orderBy('metric')
      .orderBy('bucket')
      .execute();
    const byScreen = new Map<string, Map<VitalName, { bucket: number; count: number; rating: string }[]>>();
    for (const row of rows) {
      if (!(VITAL_NAMES as readonly string[]).includes(row.metric)) continue;
      const metrics = byScreen.get(row.screen) ?? new Map();
      byScreen.set(row.screen, metrics);
      const list = metrics.get(row.metric as VitalName) ?? [];
      metrics.set(row.metric as VitalName, list);
      list.push({ bucket: row.bucket, count: Number(row.count), rating: row.rating });
    }
    const screens = [...byScreen].map(([screen, metrics]) => ({
      screen,
      metrics: VITAL_NAMES.flatMap((name) => {
        const counts = metrics.get(name);
        return counts === undefined ? [] : [summarise(name, counts)];
      }),
    }));
    const views = (entry: (typeof screens)[number]) => Math.max(0, ...entry.metrics.map((m) => m.count));
    screens.sort((a, b) => views(b) - views(a) || a.screen.localeCompare(b.screen));
    return { days, since, screens };
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = this.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.store.db
      .deleteFrom('web_vitals')
      .where('day', '<', dayOf(now - KEEP_DAYS * DAY_MS))
      .execute();
  }
}

function summarise(
  name: VitalName,
  counts: readonly { bucket: number; count: number; rating: string }[],
): MetricSummary {
  // the same bucket may come in two ratings' rows (a bound inside it): one row per bucket for quantiles
  const merged = new Map<number, number>();
  const byRating = { good: 0, 'needs-improvement': 0, poor: 0 } as Record<string, number>;
  for (const row of counts) {
    merged.set(row.bucket, (merged.get(row.bucket) ?? 0) + row.count);
    byRating[row.rating] = (byRating[row.rating] ?? 0) + row.count;
  }
  const buckets = [...merged].sort(([a], [b]) => a - b).map(([bucket, count]) => ({ bucket, count }));
  const count = buckets.reduce((sum, row) => sum + row.count, 0);
  const rounded = (value: number) => (name === 'CLS' ? Math.round(value * 1000) / 1000 : Math.round(value));
  const share = (n: number) => (count === 0 ? 0 : Math.round((n / count) * 1000) / 1000);
  return {
    name,
    count,
    p50: rounded(quantile(name, buckets, 0.5)),
    p75: rounded(quantile(name, buckets, 0.75)),
    p95: rounded(quantile(name, buckets, 0.95)),
    good: share(byRating['good'] ?? 0),
    needs_improvement: share(byRating['needs-improvement'] ?? 0),
    poor: share(byRating['poor'] ?? 0),
  };
}
