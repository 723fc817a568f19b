import type { ColumnDataType, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The owner's website (issue 20). website_parts and website_part_pictures came with the first schema;
 * this adds what editing them needs:
 * - `websites`: one row per point whose site was ever edited, holding the site's version. Every
 *   write names the version its editor read and bumps it, so two editors in two tabs cannot silently
 *   overwrite each other (the point edit's rule), without sharing the point's own version (editing
 *   the site must not make a point edit stale, and back);
 * - `website_part_pictures.variants`: the post pipeline's sized variants of a picture (JSON: small,
 *   fallback, width, height); `url` stays the detail size.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';
  await db.schema
    .createTable('websites')
    .addColumn('point_id', 'text', (c) => c.primaryKey().references('points.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('website_part_pictures').addColumn('variants', 'text').execute();
}
