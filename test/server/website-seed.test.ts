import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../src/server/seed/generate';
import { FIXTURE_CITIES } from '../../src/server/seed/test-cities';
import { OLIVIA_SITES } from '../../src/server/seed/websites';
import { websiteViewSchema } from '../../src/shared/website/api';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';

/**
 * The demo sites (issue 20, "Demo data"): olivia's first businesses and a few others' have full sites
 * whose pictures are the seed's generated ones, stored with their sizes, and which the site call reads.
 */
describe.each(TEST_DIALECTS)('demo websites on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    await t.store.db.insertInto('cities').values(FIXTURE_CITIES).execute();
    await seedDemoData(t.store, {
      points: 300,
      seed: 7,
      now: Date.UTC(2026, 0, 15),
      dataDir: t.config.dataDir,
    });
  });
  afterAll(() => t.close());

  it('gives some of olivia’s businesses and of others’ full sites with stored pictures', async () => {
    const sites = await t.store.db
      .selectFrom('websites')
      .innerJoin('points', 'points.id', 'websites.point_id')
      .innerJoin('users', 'users.id', 'points.owner_userid')
      .select(['points.id', 'points.supertype', 'users.username'])
      .execute();
    const hers = sites.filter((s) => s.username === 'olivia');
    expect(hers.length).toBeGreaterThan(0);
    expect(hers.length).toBeLessThanOrEqual(OLIVIA_SITES);
    expect(sites.length).toBeGreaterThan(hers.length);
    for (const site of sites) expect(site.supertype).toBe('business');

    const res = await t.app.inject({ method: 'GET', url: `/v1/xpoint/${hers[0]!.id}/website` });
    expect(res.statusCode, res.body).toBe(200);
    const view = websiteViewSchema.parse(res.json());
    const own = view.parts[5]!;
    expect(own.enabled).toBe(true);
    expect(own.fields.title).toBe('Our story');
    expect(own.pictures.length).toBeGreaterThanOrEqual(3);
    for (const picture of [...view.parts[0]!.pictures, ...own.pictures])
      for (const url of [picture.url, picture.small, picture.fallback])
        expect(
          fs.existsSync(path.join(t.config.dataDir, 'media', String(url).split('/').pop()!)),
          String(url),
        ).toBe(true);
  });
});
