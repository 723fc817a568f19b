import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The city page's reads stay one bounded index range however big the city (issue 19, bench/pages.ts):
 * its events that have not ended, and its points most visited this month. With `events_end` and
 * `points_city` alone, the first read every event not yet ended in every city and the second sorted
 * all of the city's points for each page.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('events_city_end').on('events').columns(['city_id', 'end_date']).execute();
  await db.schema
    .createIndex('points_city_visits')
    .on('points')
    .columns(['city_id', 'stats_this_month', 'stats_total'])
    .execute();
}
