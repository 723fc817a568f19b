import { sql, type Transaction } from 'kysely';
import {
  WEBSITE_FIELDS,
  WEBSITE_PART_COUNT,
  emptyPart,
  type WebsiteField,
  type WebsitePartData,
  type WebsitePicture,
} from '../../../shared/website';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';

/** The website's SQL (issue 20): Kysely only; the rules are in service.ts. */

type Db = Store['db'] | Transaction<Database>;

/** The site's version: 0 before its first write. */
export async function siteVersion(db: Db, pointId: string): Promise<number> {
  const row = await db
    .selectFrom('websites')
    .select('version')
    .where('point_id', '=', pointId)
    .executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/**
 * Bumps the site's version inside a write, only if it is still at `expected` (when the editor named
 * the one it read). Returns the new version, or null when someone else wrote first: the caller's
 * transaction is then rolled back by throwing.
 */
export async function bumpVersion(
  tx: Transaction<Database>,
  pointId: string,
  expected: number | undefined,
  now: number,
): Promise<number | null> {
  await tx
    .insertInto('websites')
    .values({ point_id: pointId, version: 0, updated_at: now })
    .onConflict((oc) => oc.column('point_id').doNothing())
    .execute();
  let update = tx
    .updateTable('websites')
    .set({ version: sql<number>`version + 1`, updated_at: now })
    .where('point_id', '=', pointId);
  if (expected !== undefined) update = update.where('version', '=', expected);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return siteVersion(tx, pointId);
}

interface PictureVariants {
  small?: string;
  fallback?: string;
  width?: number;
  height?: number;
}

function pictureOf(row: { pic_idx: number; url: string; variants: string | null }): WebsitePicture {
  let variants: PictureVariants = {};
  try {
    variants = row.variants ? (JSON.parse(row.variants) as PictureVariants) : {};
  } catch {
    // a picture written without variants shows its one size
  }
  return {
    pic_idx: Number(row.pic_idx),
    url: row.url,
    small: variants.small ?? null,
    fallback: variants.fallback ?? null,
    width: variants.width ?? null,
    height: variants.height ?? null,
  };
}

/** Every part of the site, 1..WEBSITE_PART_COUNT, with the defaults where nothing was written. */
export async function siteParts(db: Db, pointId: string): Promise<WebsitePartData[]> {
  const [rows, pictures] = await Promise.all([
    db.selectFrom('website_parts').selectAll().where('point_id', '=', pointId).execute(),
    db
      .selectFrom('website_part_pictures')
      .select(['part_idx', 'pic_idx', 'url', 'variants'])
      .where('point_id', '=', pointId)
      .orderBy('part_idx')
      .orderBy('pic_idx')
      .execute(),
  ]);
  const parts: WebsitePartData[] = [];
  for (let idx = 1; idx <= WEBSITE_PART_COUNT; idx++) {
    const part = emptyPart(idx);
    const row = rows.find((r) => Number(r.part_idx) === idx);
    if (row) {
      part.enabled = Number(row.enabled) === 1;
      for (const name of WEBSITE_FIELDS) part.fields[name] = row[name] ?? null;
    }
    part.pictures = pictures.filter((p) => Number(p.part_idx) === idx).map(pictureOf);
    parts.push(part);
  }
  return parts;
}

export async function sitePart(db: Db, pointId: string, partIdx: number): Promise<WebsitePartData> {
  const parts = await siteParts(db, pointId);
  return parts[partIdx - 1] ?? emptyPart(partIdx);
}

/**
 * Makes sure the part's row exists (pictures hang off it), switched as the part shows by default
 * until someone switches it.
 */
async function ensurePart(tx: Transaction<Database>, pointId: string, partIdx: number, now: number) {
  const defaults = emptyPart(partIdx);
  await tx
    .insertInto('website_parts')
    .values({ point_id: pointId, part_idx: partIdx, enabled: defaults.enabled ? 1 : 0, updated_at: now })
    .onConflict((oc) => oc.columns(['point_id', 'part_idx']).doNothing())
    .execute();
}

export async function setEnabled(
  tx: Transaction<Database>,
  pointId: string,
  partIdx: number,
  enabled: boolean,
  now: number,
) {
  await ensurePart(tx, pointId, partIdx, now);
  await tx
    .updateTable('website_parts')
    .set({ enabled: enabled ? 1 : 0, updated_at: now })
    .where('point_id', '=', pointId)
    .where('part_idx', '=', partIdx)
    .execute();
}

export async function setFields(
  tx: Transaction<Database>,
  pointId: string,
  partIdx: number,
  fields: Partial<Record<WebsiteField, string | null>>,
  now: number,
) {
  await ensurePart(tx, pointId, partIdx, now);
  await tx
    .updateTable('website_parts')
    .set({ ...fields, updated_at: now })
    .where('point_id', '=', pointId)
    .where('part_idx', '=', partIdx)
    .execute();
}

export async function putPicture(
  tx: Transaction<Database>,
  pointId: string,
  partIdx: number,
  picIdx: number,
  url: string,
  variants: PictureVariants,
  now: number,
) {
  await ensurePart(tx, pointId, partIdx, now);
  const value = { url, variants: JSON.stringify(variants) };
  await tx
    .insertInto('website_part_pictures')
    .values({ point_id: pointId, part_idx: partIdx, pic_idx: picIdx, ...value })
    .onConflict((oc) => oc.columns(['point_id', 'part_idx', 'pic_idx']).doUpdateSet(value))
    .execute();
}

/** Removes one picture; false when the slot was empty. */
export async function deletePicture(
  tx: Transaction<Database>,
  pointId: string,
  partIdx: number,
  picIdx: number,
): Promise<boolean> {
  const result = await tx
    .deleteFrom('website_part_pictures')
    .where('point_id', '=', pointId)
    .where('part_idx', '=', partIdx)
    .where('pic_idx', '=', picIdx)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Puts a part's pictures in `order` (their current slots), renumbered 1..n: all are removed and
 * written again in one transaction, as the slots are the primary key.
 */
export async function reorderPictures(
  tx: Transaction<Database>,
  pointId: string,
  partIdx: number,
  order: readonly number[],
) {
  const rows = await tx
    .selectFrom('website_part_pictures')
    .select(['pic_idx', 'url', 'variants'])
    .where('point_id', '=', pointId)
    .where('part_idx', '=', partIdx)
    .execute();
  await tx
    .deleteFrom('website_part_pictures')
    .where('point_id', '=', pointId)
    .where('part_idx', '=', partIdx)
    .execute();
  const values = order.map((from, i) => {
    const row = rows.find((r) => Number(r.pic_idx) === from);
    if (!row) throw new Error(`picture ${from} vanished during the reorder`);
    return { point_id: pointId, part_idx: partIdx, pic_idx: i + 1, url: row.url, variants: row.variants };
  });
  if (values.length > 0) await tx.insertInto('website_part_pictures').values(values).execute();
}
