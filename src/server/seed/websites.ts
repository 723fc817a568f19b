import type { Store } from '../store/store';
import { WEBSITE_PICS_PER_PART, type WebsiteField } from '../../shared/website';
import type { ImageSet } from './images';

/**
 * Demo sites (issue 20): some seeded businesses, olivia's first among them, get full sites: a welcome
 * written by their owner, a section of their own switched on, lines, and pictures. The pictures are
 * the seed's generated covers as the posts' pipeline encoded them (images.ts: sized WebP variants and
 * a JPEG), so a demo site looks as one made through the editor does.
 *
 * Written after the main transaction (as the posts' places are), in one transaction of its own, from
 * the points that transaction wrote: deterministic for a given seed, since the points are.
 */

/** How many of olivia's businesses, and of other owners', get a site. */
export const OLIVIA_SITES = 4;
export const OTHER_SITES = 6;

const STORY_LINES = [
  'Family run since the day we opened',
  'Everything made here, every morning',
  'Ask us about catering and group bookings',
  'Card, cash and phone payments welcome',
  'Step-free entrance and a quiet corner',
];

export async function seedWebsites(
  store: Store,
  images: ImageSet,
  now: number,
  log: (message: string) => void = () => {},
): Promise<number> {
  const olivia = await store.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'olivia')
    .executeTakeFirst();
  const owned = store.db
    .selectFrom('points')
    .select(['id', 'title', 'tagline'])
    .where('supertype', '=', 'business')
    .where('owner_userid', 'is not', null)
    .orderBy('id');
  const [hers, others] = await Promise.all([
    olivia ? owned.where('owner_userid', '=', olivia.id).limit(OLIVIA_SITES).execute() : Promise.resolve([]),
    owned
      .where('owner_userid', '!=', olivia?.id ?? '')
      .limit(OTHER_SITES)
      .execute(),
  ]);
  const covers = [...images.postCovers.values()];
  if (covers.length === 0) return 0;
  const sites = [...hers, ...others];
  await store.db.transaction().execute(async (tx) => {
    for (const [n, site] of sites.entries()) {
      const parts: { part_idx: number; enabled: number; fields: Partial<Record<WebsiteField, string>> }[] = [
        {
          part_idx: 1,
          enabled: 1,
          fields: {
            title: `Welcome to ${site.title}`.slice(0, 80),
            description:
              site.tagline ?? `A neighbourhood favourite. Come and see what ${site.title} is about.`,
          },
        },
        {
          part_idx: 6,
          enabled: 1,
          fields: Object.fromEntries([
            ['title', 'Our story'],
            ...STORY_LINES.slice(0, 3 + (n % 3)).map((line, i) => [`line${i + 1}`, line]),
          ]) as Partial<Record<WebsiteField, string>>,
        },
      ];
      await tx
        .insertInto('website_parts')
        .values(
          parts.map((p) => ({
            point_id: site.id,
            part_idx: p.part_idx,
            enabled: p.enabled,
            ...p.fields,
            updated_at: now,
          })),
        )
        .execute();
      const pictures = [];
      for (const part of [1, 6]) {
        const count = part === 1 ? 2 : Math.min(WEBSITE_PICS_PER_PART, 3 + (n % 4));
        for (let i = 0; i < count; i++) {
          const cover = covers[(n * 7 + part * 3 + i) % covers.length]!;
          const variants = JSON.parse(cover.image_variants) as {
            feed: string;
            fallback: string;
            width: number;
            height: number;
          };
          pictures.push({
            point_id: site.id,
            part_idx: part,
            pic_idx: i + 1,
            url: cover.image_url,
            variants: JSON.stringify({
              small: variants.feed,
              fallback: variants.fallback,
              width: variants.width,
              height: variants.height,
            }),
          });
        }
      }
      await tx.insertInto('website_part_pictures').values(pictures).execute();
      await tx.insertInto('websites').values({ point_id: site.id, version: 1, updated_at: now }).execute();
    }
  });
  log(`seed: ${sites.length} demo sites`);
  return sites.length;
}
