import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../../test/support/store';
import { findCategory } from '../../shared/domain/categories';
import type { PointSupertype } from '../../shared/domain/supertypes';
import { DiskMediaStore } from '../media/store';
import { businessTaglineTemplates } from './content';
import { eventTypesFor, programmesFor } from './event-content';
import { seedDemoData } from './generate';
import { generateImages, type ImageSet } from './images';
import type { LandMask } from './land';
import { fittingCovers } from './points';
import { FIXTURE_CITIES } from './test-cities';

/**
 * Issue 21 items 3 and 9: demo data that fits each place. Land places on land (with a land mask of
 * our own: water west of every city's centre), events that fit their host without template text
 * repeated dozens of times, taglines and pictures of the place's own type.
 */

const NOW = Date.UTC(2025, 5, 15, 14, 7, 30);
const POINTS = 1500;

/** Water west of the nearest fixture city's centre: a coast down every city's middle. */
function nearestCity(lat: number, lon: number) {
  let best = FIXTURE_CITIES[0]!;
  for (const city of FIXTURE_CITIES) {
    if ((city.lat - lat) ** 2 + (city.lon - lon) ** 2 < (best.lat - lat) ** 2 + (best.lon - lon) ** 2)
      best = city;
  }
  return best;
}
const halfWet: LandMask = { isLand: (lat, lon) => lon >= nearestCity(lat, lon).lon };

/** A template as a pattern its filled text must match ({City}, {Year}, … stand for any words). */
function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\\{[A-Za-z]+\\\}/g, '.+')}$`);
}

describe('demo content that fits each place', () => {
  let store: TestStore;
  let dataDir: string;
  let images: ImageSet;

  beforeAll(async () => {
    store = await openTestStore('sqlite');
    await store.db.insertInto('cities').values(FIXTURE_CITIES).execute();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-demo-content-'));
    await seedDemoData(store, { points: POINTS, seed: 7, now: NOW, dataDir, land: halfWet });
    // content-addressed: the same pictures at the same addresses the seed linked
    images = await generateImages(new DiskMediaStore(path.join(dataDir, 'media')));
  });
  afterAll(async () => {
    await store?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const points = () =>
    store.db
      .selectFrom('points')
      .select(['id', 'supertype', 'type', 'title', 'tagline', 'description', 'url_cover_image', 'lat', 'lon'])
      .execute();

  it('puts every point and event on land by the land mask it was given', async () => {
    const rows = [
      ...(await points()),
      ...(await store.db.selectFrom('events').select(['id', 'lat', 'lon']).execute()),
    ];
    const wet = rows.filter((r) => r.lat !== null && r.lon !== null && !halfWet.isLand(r.lat, r.lon));
    expect(wet).toEqual([]);
  });

  it('shows no template text in titles, taglines and descriptions', async () => {
    const events = await store.db.selectFrom('events').select(['title', 'description']).execute();
    const texts: (string | null)[] = [
      ...(await points()).flatMap((p) => [p.title, p.tagline, p.description]),
      ...events.flatMap((e) => [e.title, e.description]),
    ];
    expect(texts.filter((t) => t !== null && /[{}]/.test(t))).toEqual([]);
  });

  it('gives events titles that do not repeat: no title more than 3 times, no programme in more than 3% of events', async () => {
    const events = await store.db.selectFrom('events').select(['title', 'type']).execute();
    expect(events.length).toBeGreaterThan(100);
    const count = (keys: string[]) => {
      const counts = new Map<string, number>();
      for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1]);
    };
    expect(count(events.map((e) => e.title)).filter(([, n]) => n > 3)).toEqual([]);
    // the programme inside a title, whatever frames it (venue, day, month, city, guest)
    const programme = (e: { title: string; type: string }) =>
      programmesFor(e.type, e.type).find((p) => e.title.includes(p)) ?? e.title;
    const limit = Math.max(6, Math.ceil(events.length * 0.03));
    expect(count(events.map(programme)).filter(([, n]) => n > limit)).toEqual([]);
  });

  it('holds at each host events of a type that fits it (a café no blood drive, a fire station no pub quiz)', async () => {
    const hosted = await store.db
      .selectFrom('events')
      .innerJoin('points', 'points.id', 'events.xpoint_id')
      .select(['events.type as eventType', 'points.supertype', 'points.type as pointType'])
      .execute();
    expect(hosted.length).toBeGreaterThan(20);
    const misfits = hosted.filter((h) => {
      const category = findCategory(h.supertype, h.pointType);
      const fits = category ? eventTypesFor(h.supertype as PointSupertype, category) : [];
      return fits.length > 0 && !fits.includes(h.eventType);
    });
    expect(misfits).toEqual([]);
  });

  it('gives every business a tagline from its own type’s set (no fire station “Now taking online bookings”)', async () => {
    const businesses = (await points()).filter((p) => p.supertype === 'business' && p.tagline !== null);
    expect(businesses.length).toBeGreaterThan(200);
    const misfits = businesses.filter((p) => {
      const category = findCategory('business', p.type);
      if (!category) return true;
      const { specific, group, generic } = businessTaglineTemplates(category);
      return ![...specific, ...group, ...generic].some((t) => templatePattern(t).test(p.tagline!));
    });
    expect(misfits.map((p) => `${p.type}: ${p.tagline}`)).toEqual([]);
    const civic = businesses.filter((p) => ['fire_station', 'police', 'townhall'].includes(p.type));
    expect(civic.filter((p) => /booking/i.test(p.tagline!))).toEqual([]);
  });

  it('shows only pictures of the place’s own type, as cover and in its gallery', async () => {
    const rows = await points();
    const byId = new Map(rows.map((p) => [p.id, p]));
    const fits = (p: (typeof rows)[number], url: string) => {
      const category = findCategory(p.supertype, p.type);
      return (
        category !== undefined && fittingCovers(images, p.supertype as PointSupertype, category).includes(url)
      );
    };
    const covered = rows.filter((p) => p.url_cover_image !== null);
    expect(covered.length).toBeGreaterThan(POINTS * 0.5);
    expect(covered.filter((p) => !fits(p, p.url_cover_image!)).map((p) => `${p.type}`)).toEqual([]);
    const gallery = await store.db.selectFrom('point_screenshots').select(['point_id', 'url']).execute();
    expect(gallery.filter((g) => !fits(byId.get(g.point_id)!, g.url))).toEqual([]);
    // a coffee house never shows a T-shirt, an espresso bar never a dumbbell
    const clothes = images.coverByKind.get('business/clothes');
    const gym = images.coverByKind.get('business/gym');
    const cafes = covered.filter((p) => ['cafe', 'coffee'].includes(p.type));
    expect(cafes.length).toBeGreaterThan(0);
    expect(cafes.filter((p) => p.url_cover_image === clothes || p.url_cover_image === gym)).toEqual([]);
  });
});
