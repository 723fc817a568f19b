import type { Kysely } from 'kysely';

/**
 * Real-user timings (issue 23): how many page views of each screen had each metric in each value
 * bucket, per UTC day (src/server/features/vitals). The rating (good, needs-improvement, poor) is part
 * of the key, decided from the exact value when counted, so the shares are exact while the
 * percentiles are read from the buckets (within 2.5%). No id, path or person: only counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_vitals')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('rating', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('web_vitals_pk', ['day', 'screen', 'metric', 'rating', 'bucket'])
    .execute();
}
