/**
 * The demo data generator: believable content for every supertype around real cities, with users,
 * events, posts, reviews, comments, likes and follows. Deterministic: the same seed and the same `now`
 * give the same rows. Fast: rows stream out in batches through the raw drivers (sink.ts).
 *
 * Everything is written in ONE transaction: a kill mid-way leaves the store exactly as it was before
 * (no points, so the next start seeds again), apart from image files under DATA_DIR/media, which are
 * content-addressed and reused.
 */
import path from 'node:path';
import { sql } from 'kysely';
import OpeningHours from 'opening_hours';
import { hashPassword } from '../features/accounts/password';
import { POINT_SUPERTYPES, type PointSupertype } from '../../shared/domain/supertypes';
import type { Store } from '../store/store';
import { DiskMediaStore, type MediaStore } from '../media/store';
import { OPENING_HOURS, UNPARSEABLE_OPENING_HOURS } from './content';
import { generateImages } from './images';
import { openLandMask, type LandMask } from './land';
import { loadSeedCities } from './places';
import { openSink } from './sink';
import { FOLLOWS, MEDIA_ASSETS, NOTIFICATIONS, USERS, WIPE_ORDER } from './tables';

import { recountLikes } from '../features/likes/queries';
import { topUpEvents } from './events';
import { point } from './points';
import { post, postCount } from './posts';
import { attachDemoVideos, makeDemoVideos } from './videos';
import { follows, users } from './users';
import { Batch, DEMO_PASSWORD, SeedWorld, type SeedSummary } from './world';

export { DEMO_ACCOUNTS, DEMO_PASSWORD, type SeedSummary } from './world';

export interface SeedOptions {
  /** how many points to generate (events, posts, users and the rest scale with it). */
  points: number;
  seed: number;
  /** the moment the data is relative to (events now, upcoming, past); defaults to Date.now(). */
  now?: number;
  /** the data directory; generated pictures go under `${dataDir}/media` unless `media` is given. */
  dataDir: string;
  /** the media store the generated pictures go to (main.ts and the seed CLI pass the configured one). */
  media?: MediaStore;
  log?: (message: string) => void;
  /** delete existing content (users, points and everything hanging off them) first, in the same transaction. */
  wipe?: boolean;
  /** points per write batch; the default suits both engines. */
  batchSize?: number;
  /** called after each batch of points is written (inside the transaction: nothing is visible yet). */
  progress?: (pointsDone: number, pointsTotal: number) => void;
  /** where the coast is; default: the built basemap's (dist/map), none when it was never built. */
  land?: LandMask | null;
}

/** Points per batch: each batch's rows (points and everything hanging off them) are written together. */
const DEFAULT_BATCH = 10_000;
/** Posts per batch, with their comments and likes. */
const POST_BATCH = 10_000;

/** Throws if one of the seed's opening_hours strings does not parse cleanly (and if a deliberately bad one does). */
export function checkOpeningHours(): void {
  for (const value of new Set(Object.values(OPENING_HOURS).flat())) {
    let parsed: OpeningHours;
    try {
      parsed = new OpeningHours(value);
    } catch (error) {
      throw new Error(`seed opening hours ${JSON.stringify(value)} do not parse: ${String(error)}`, {
        cause: error,
      });
    }
    const warnings = parsed.getWarnings();
    if (warnings.length > 0)
      throw new Error(`seed opening hours ${JSON.stringify(value)} warn: ${warnings[0]}`);
  }
  for (const value of UNPARSEABLE_OPENING_HOURS) {
    let parses = true;
    try {
      new OpeningHours(value);
    } catch {
      parses = false;
    }
    if (parses) throw new Error(`seed opening hours ${JSON.stringify(value)} were meant not to parse`);
  }
}

export async function seedDemoData(store: Store, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const total = Math.max(0, Math.floor(options.points));
  const now = options.now ?? Date.now();
  checkOpeningHours();
  const cities = await loadSeedCities(store.db);
  const media = options.media ?? new DiskMediaStore(path.join(options.dataDir, 'media'));
  const [images, passwordHash, videos] = await Promise.all([
    generateImages(media),
    hashPassword(DEMO_PASSWORD),
    makeDemoVideos(media),
  ]);
  log(`seed: ${total} points from seed ${options.seed} around ${cities.length} cities`);

  const land = options.land === undefined ? openLandMask() : options.land;
  if (land === null) log('seed: no basemap land mask (npm run build:map): points may fall in the water');
  const world = new SeedWorld(options.seed >>> 0, now, total, cities, images, passwordHash, land);
  const counts: SeedSummary = {
    points: 0,
    bySupertype: Object.fromEntries(POINT_SUPERTYPES.map((s) => [s, 0])) as Record<PointSupertype, number>,
    users: 0,
    screenshots: 0,
    contacts: 0,
    events: 0,
    eventIntervals: 0,
    eventTickets: 0,
    reviews: 0,
    posts: 0,
    comments: 0,
    likes: 0,
    follows: 0,
    notifications: 0,
    reviewReplies: 0,
    claims: 0,
    consultRequests: 0,
    mediaAssets: images.assets.length,
    elapsedMs: 0,
  };

  const sink = await openSink(store);
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  try {
    await sink.begin();
    if (options.wipe) {
      if (sink.kind === 'postgres') await sink.exec(`truncate ${WIPE_ORDER.join(', ')} restart identity`);
      else for (const table of WIPE_ORDER) await sink.exec(`delete from ${table}`);
      log('seed: removed the previous content');
    }
    await sink.write(
      MEDIA_ASSETS,
      images.assets.map((a) => ({ ...a, owner_userid: null, created_at: now })),
    );

    const userRows = users(world);
    await sink.write(USERS, userRows);
    counts.users = userRows.length;
    const followRows = follows(world);
    await sink.write(FOLLOWS, followRows);
    counts.follows = followRows.length;

    const batchSize = Math.max(100, options.batchSize ?? DEFAULT_BATCH);
    let batch = new Batch();
    const progressEvery = Math.max(batchSize, 100_000);
    for (let i = 0; i < total; i++) {
      const supertype = point(world, i, batch);
      counts.bySupertype[supertype]++;
      if (batch.points.length >= batchSize) {
        await batch.writeTo(sink, counts);
        batch = new Batch();
        options.progress?.(i + 1, total);
        if ((i + 1) % progressEvery < batchSize) log(`seed: ${i + 1} points`);
        await yieldToLoop();
      }
    }
    topUpEvents(world, batch);
    await batch.writeTo(sink, counts);

    batch = new Batch();
    const posts = postCount(world);
    for (let i = 0; i < posts; i++) {
      post(world, i, batch);
      if (batch.posts.length >= POST_BATCH) {
        await batch.writeTo(sink, counts);
        batch = new Batch();
        await yieldToLoop();
      }
    }
    await batch.writeTo(sink, counts);
    await attachDemoVideos(sink, videos, now);
    // the demo accounts' bells: what the notifications feature would have written for the rows above
    const notificationRows = world.inbox.rows(now);
    await sink.write(NOTIFICATIONS, notificationRows);
    counts.notifications = notificationRows.length;
    await sink.commit();
  } catch (error) {
    await sink.rollback().catch(() => {});
    throw error;
  } finally {
    sink.release();
  }
  // posts on a point are on the map at its place (migration 0010's rule for the rows it found)
  await sql`update posts set lat = (select p.lat from points p where p.id = posts.xpoint_id),
    lon = (select p.lon from points p where p.id = posts.xpoint_id)
    where xpoint_id is not null and lat is null`.execute(store.db);
  // the likes were written in bulk, beside their counters: the counters are set from them
  await recountLikes(store.db);
  // demo sites of some businesses (issue 20), from the points written above
  await (await import('./websites')).seedWebsites(store, images, now, log);
  // demo availability and bookings of some rentals (issue 22), through the bookings service
  await (await import('./bookings')).seedBookings(store, now, log);
  if (store.raw.kind === 'postgres') {
    // fresh statistics, so the planner knows the tables are no longer empty
    await store.raw.pool.query(`analyze ${WIPE_ORDER.join(', ')}`);
  }
  counts.elapsedMs = Math.round(performance.now() - started);
  log(`seed: done in ${counts.elapsedMs} ms`);
  return counts;
}
