/**
 * The demo data generator: believable content for every supertype around real cities, with users,
 * events, posts, reviews, comments, likes and follows. Deterministic: the same seed and the same `now`
 * give the same rows. Fast: rows stream out in batches through the raw drivers (sink.ts).
 *
 * Everything is written in ONE transaction: a kill mid-way leaves the store exactly as it was before
 * (no points, so the next start seeds again), apart from image files under DATA_DIR/media, which are
 * content-addressed and reused.
 */
import OpeningHours from 'opening_hours';
import { hashPassword } from '../features/accounts/password';
import { BeamFlag } from '../../shared/domain/beams';
import { categoriesFor, type Category } from '../../shared/domain/categories';
import { ADMISSIONS, POST_CATEGORIES, POST_PLACEHOLDERS, USER_STATUSES } from '../../shared/domain/enums';
import { POINT_SUPERTYPES, type PointSupertype } from '../../shared/domain/supertypes';
import type { Store } from '../store/store';
import {
  BUSINESS_TYPE_WEIGHTS,
  COMMENTS as COMMENT_TEXTS,
  CONTACT_ROLE_TEXTS,
  FIRST_NAMES,
  LAST_NAMES,
  OPENING_HOURS,
  UNPARSEABLE_OPENING_HOURS,
  XSITES,
  businessDescription,
  businessGroup,
  businessName,
  businessTagline,
  eventText,
  experienceText,
  helpRequestText,
  incidentText,
  kindName,
  makeCtx,
  poiText,
  poiName,
  postText,
  rentalText,
  restaurantName,
  reviewText,
  serviceText,
  virtualStoreText,
  type BusinessGroup,
  type Ctx,
} from './content';
import { generateImages, type ImageSet } from './images';
import {
  approximateOffsetMs,
  cityPicker,
  jitter,
  loadSeedCities,
  phoneNumber,
  slugOf,
  streetAddress,
  type SeedCity,
} from './places';
import { Random, makeGuid, makeId, weightedPicker } from './random';
import { openSink, type Sink, type TableSpec } from './sink';
import {
  COMMENTS,
  CONTACTS,
  EVENTS,
  EVENT_INTERVALS,
  EVENT_TICKETS,
  FOLLOWS,
  LIKES,
  MEDIA_ASSETS,
  POINTS,
  POSTS,
  REVIEWS,
  SCREENSHOTS,
  USERS,
  WIPE_ORDER,
  type CommentRow,
  type ContactRow,
  type EventRow,
  type FollowRow,
  type IntervalRow,
  type LikeRow,
  type PointRow,
  type PostRow,
  type ReviewRow,
  type ScreenshotRow,
  type TicketRow,
  type UserRow,
} from './tables';

export const DEMO_PASSWORD = 'xpoint-demo';

/** The fixed demo accounts, created first (ids u0..u3 in creation order), all with DEMO_PASSWORD. */
export const DEMO_ACCOUNTS = [
  { username: 'admin', fullname: 'Ada Admin', isAdmin: true, role: 'administrator of everything' },
  {
    username: 'olivia',
    fullname: 'Olivia Owner',
    isAdmin: false,
    role: 'owner of many points (many in New York)',
  },
  { username: 'carlos', fullname: 'Carlos Consultant', isAdmin: false, role: 'consultant of many points' },
  {
    username: 'uma',
    fullname: 'Uma User',
    isAdmin: false,
    role: 'a plain user: reviews, posts, likes, follows',
  },
] as const;

const ADMIN = 0;
const OLIVIA = 1;
const CARLOS = 2;
const UMA = 3;
const FIRST_GENERATED_USER = DEMO_ACCOUNTS.length;

export interface SeedOptions {
  /** how many points to generate (events, posts, users and the rest scale with it). */
  points: number;
  seed: number;
  /** the moment the data is relative to (events now, upcoming, past); defaults to Date.now(). */
  now?: number;
  /** where media files go (`${dataDir}/media`). */
  dataDir: string;
  log?: (message: string) => void;
  /** delete existing content (users, points and everything hanging off them) first, in the same transaction. */
  wipe?: boolean;
  /** points per write batch; the default suits both engines. */
  batchSize?: number;
  /** called after each batch of points is written (inside the transaction: nothing is visible yet). */
  progress?: (pointsDone: number, pointsTotal: number) => void;
}

export interface SeedSummary {
  points: number;
  bySupertype: Record<PointSupertype, number>;
  users: number;
  screenshots: number;
  contacts: number;
  events: number;
  eventIntervals: number;
  eventTickets: number;
  reviews: number;
  posts: number;
  comments: number;
  likes: number;
  follows: number;
  mediaAssets: number;
  elapsedMs: number;
}

/** Shares of each supertype among generated points. */
const SUPERTYPE_SHARES: Readonly<Record<PointSupertype, number>> = {
  business: 0.62,
  poi: 0.12,
  virtualstore: 0.05,
  service: 0.07,
  experience: 0.04,
  rental: 0.04,
  helprequest: 0.04,
  incident: 0.02,
};

/** Probability that a point of each supertype has an owner. */
const OWNED: Readonly<Record<PointSupertype, number>> = {
  business: 0.78,
  poi: 0.25,
  virtualstore: 0.95,
  service: 1,
  experience: 0.95,
  rental: 0.95,
  helprequest: 1,
  incident: 0.9,
};

/** Probability that a point has reviews (and so a rating made from them). */
const REVIEWED: Readonly<Record<PointSupertype, number>> = {
  business: 0.17,
  poi: 0.08,
  virtualstore: 0.1,
  service: 0.15,
  experience: 0.26,
  rental: 0.17,
  helprequest: 0,
  incident: 0,
};

/** Probability that a point hosts events. */
const HOSTS_EVENTS: Readonly<Record<PointSupertype, number>> = {
  business: 0.09,
  poi: 0.08,
  virtualstore: 0,
  service: 0.02,
  experience: 0.3,
  rental: 0.02,
  helprequest: 0,
  incident: 0,
};

const EVENT_TYPE_WEIGHTS: Readonly<Record<string, number>> = {
  music: 5,
  concert: 5,
  food: 4,
  drinks: 3,
  art: 3,
  exhibition: 3,
  comedy: 3,
  party: 3,
  networking: 3,
  fitness: 3,
  sports: 3,
  theatre: 3,
  film: 2,
  education: 2,
  farmers_market: 2,
  dance: 2,
  wine_tasting: 2,
  childrens: 2,
  games: 2,
  custom: 0.5,
};

/** Probability that a point has opening hours. */
const HAS_OPENING_HOURS: Readonly<Record<PointSupertype, number>> = {
  business: 0.93,
  poi: 0.4,
  virtualstore: 0.3,
  service: 0.6,
  experience: 0.8,
  rental: 0.8,
  helprequest: 0,
  incident: 0,
};

/** Ticket options besides general admission, priced as a factor of it. */
const TICKET_OPTIONS = [
  { name: 'Early bird', factor: 0.8 },
  { name: 'Student', factor: 0.6 },
  { name: 'VIP', factor: 2.5 },
  { name: 'Group of 4', factor: 3.5 },
  { name: 'Child (under 12)', factor: 0.5 },
  { name: 'Front row', factor: 1.8 },
] as const;

/** Fewest events, whatever the number of points (standalone events top up small seeds). */
const MIN_EVENTS = 20;

/**
 * Event timing, cycled so that every mix of a few dozen events has all four kinds:
 * past, running now, starting within 120 minutes, and later.
 */
type EventTiming = 'past' | 'current' | 'upcoming' | 'later';
const EVENT_TIMINGS: readonly EventTiming[] = [
  'later',
  'past',
  'current',
  'upcoming',
  'later',
  'past',
  'later',
  'current',
  'later',
  'upcoming',
  'past',
  'later',
  'later',
  'past',
  'current',
  'later',
  'upcoming',
  'past',
  'later',
  'later',
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
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

interface UserInfo {
  id: string;
  username: string;
  first: string;
  last: string;
}

/** Everything generated for one batch, written together in foreign-key order. */
class Batch {
  points: PointRow[] = [];
  screenshots: ScreenshotRow[] = [];
  contacts: ContactRow[] = [];
  events: EventRow[] = [];
  intervals: IntervalRow[] = [];
  tickets: TicketRow[] = [];
  reviews: ReviewRow[] = [];
  posts: PostRow[] = [];
  comments: CommentRow[] = [];
  likes: LikeRow[] = [];

  async writeTo(sink: Sink, counts: SeedSummary): Promise<void> {
    const put = async <Row>(table: TableSpec<Row>, rows: Row[], counter: CountKey) => {
      if (rows.length === 0) return;
      await sink.write(table, rows);
      counts[counter] += rows.length;
    };
    await put(POINTS, this.points, 'points');
    await put(SCREENSHOTS, this.screenshots, 'screenshots');
    await put(CONTACTS, this.contacts, 'contacts');
    await put(EVENTS, this.events, 'events');
    await put(EVENT_INTERVALS, this.intervals, 'eventIntervals');
    await put(EVENT_TICKETS, this.tickets, 'eventTickets');
    await put(REVIEWS, this.reviews, 'reviews');
    await put(POSTS, this.posts, 'posts');
    await put(COMMENTS, this.comments, 'comments');
    await put(LIKES, this.likes, 'likes');
  }
}

type CountKey = Exclude<keyof SeedSummary, 'bySupertype'>;

export async function seedDemoData(store: Store, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const total = Math.max(0, Math.floor(options.points));
  const now = options.now ?? Date.now();
  checkOpeningHours();
  const cities = await loadSeedCities(store.db);
  const [images, passwordHash] = await Promise.all([
    generateImages(options.dataDir),
    hashPassword(DEMO_PASSWORD),
  ]);
  log(`seed: ${total} points from seed ${options.seed} around ${cities.length} cities`);

  const generator = new Generator(options.seed >>> 0, now, total, cities, images, passwordHash);
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

    const users = generator.users();
    await sink.write(USERS, users);
    counts.users = users.length;
    const follows = generator.follows();
    await sink.write(FOLLOWS, follows);
    counts.follows = follows.length;

    const batchSize = Math.max(100, options.batchSize ?? DEFAULT_BATCH);
    let batch = new Batch();
    const progressEvery = Math.max(batchSize, 100_000);
    for (let i = 0; i < total; i++) {
      const supertype = generator.point(i, batch);
      counts.bySupertype[supertype]++;
      if (batch.points.length >= batchSize) {
        await batch.writeTo(sink, counts);
        batch = new Batch();
        options.progress?.(i + 1, total);
        if ((i + 1) % progressEvery < batchSize) log(`seed: ${i + 1} points`);
        await yieldToLoop();
      }
    }
    generator.topUpEvents(batch);
    await batch.writeTo(sink, counts);

    batch = new Batch();
    const postCount = generator.postCount();
    for (let i = 0; i < postCount; i++) {
      generator.post(i, batch);
      if (batch.posts.length >= POST_BATCH) {
        await batch.writeTo(sink, counts);
        batch = new Batch();
        await yieldToLoop();
      }
    }
    await batch.writeTo(sink, counts);
    await sink.commit();
  } catch (error) {
    await sink.rollback().catch(() => {});
    throw error;
  } finally {
    sink.release();
  }
  if (store.raw.kind === 'postgres') {
    // fresh statistics, so the planner knows the tables are no longer empty
    await store.raw.pool.query(`analyze ${WIPE_ORDER.join(', ')}`);
  }
  counts.elapsedMs = Math.round(performance.now() - started);
  log(`seed: done in ${counts.elapsedMs} ms`);
  return counts;
}

class Generator {
  private readonly userRng: Random;
  private readonly pointRng: Random;
  private readonly relatedRng: Random;
  private readonly postRng: Random;
  private readonly pickCity: (rng: Random) => number;
  private readonly pickSupertype: (rng: Random) => PointSupertype;
  private readonly typePickers: Map<PointSupertype, (rng: Random) => Category>;
  private readonly pickEventType: (rng: Random) => Category;
  private readonly pickPostCategory: (rng: Random) => string;
  private readonly pickStatus: (rng: Random) => string;
  private readonly pickAdmission = weightedPicker(ADMISSIONS, [45, 40, 15]);
  private readonly userInfo: UserInfo[] = [];
  private readonly generatedUsers: number;
  /** the city (index into cities) of every point, for posts that mention a point. */
  private readonly pointCity: Int32Array;
  private readonly newYork: number;
  private readonly oliviaChance: { newYork: number; elsewhere: number };
  private readonly carlosChance: number;
  /** small seeds get proportionally more reviews and events, so the minimums hold. */
  private readonly smallSeedBoost: number;
  private eventCount = 0;
  private reviewCount = 0;
  private commentCount = 0;
  private likeCount = 0;

  constructor(
    private readonly seed: number,
    private readonly now: number,
    private readonly total: number,
    private readonly cities: readonly SeedCity[],
    private readonly images: ImageSet,
    private readonly passwordHash: string,
  ) {
    this.userRng = Random.fork(seed, 'users');
    this.pointRng = Random.fork(seed, 'points');
    this.relatedRng = Random.fork(seed, 'related');
    this.postRng = Random.fork(seed, 'posts');
    this.pickCity = cityPicker(cities);
    this.pickSupertype = weightedPicker(
      POINT_SUPERTYPES,
      POINT_SUPERTYPES.map((s) => SUPERTYPE_SHARES[s]),
    );
    this.typePickers = new Map(
      POINT_SUPERTYPES.map((supertype) => {
        const list = categoriesFor(supertype);
        const weights = list.map((c) => {
          if (supertype === 'business') return BUSINESS_TYPE_WEIGHTS[c.key] ?? (c.key === 'custom' ? 0.3 : 1);
          return /^custom/.test(c.key) ? 0.3 : 1;
        });
        return [supertype, weightedPicker(list, weights)];
      }),
    );
    const eventTypes = categoriesFor('event');
    this.pickEventType = weightedPicker(
      eventTypes,
      eventTypes.map((c) => EVENT_TYPE_WEIGHTS[c.key] ?? 1),
    );
    this.pickPostCategory = weightedPicker(POST_CATEGORIES, [2, 1, 3, 3, 3, 2, 2]);
    this.pickStatus = weightedPicker(USER_STATUSES, [70, 10, 8, 10, 2]);
    this.generatedUsers = Math.min(50_000, Math.max(20, Math.round(total / 20)));
    this.pointCity = new Int32Array(total);
    this.newYork = cities.findIndex((c) => c.isNewYork);
    const nycPoints = this.newYork >= 0 ? Math.max(1, total * 0.08) : 1;
    this.oliviaChance = {
      newYork: Math.min(0.15, 300 / (0.75 * nycPoints)),
      elsewhere: Math.min(0.05, 200 / Math.max(1, 0.75 * total)),
    };
    this.carlosChance = Math.min(0.4, 400 / Math.max(1, 0.13 * total));
    this.smallSeedBoost = Math.max(1, 150 / Math.max(1, total));
  }

  userId(index: number): string {
    return makeId(this.seed, 'user', index);
  }

  pointId(index: number): string {
    return makeId(this.seed, 'point', index);
  }

  // --- users ---------------------------------------------------------------------------------

  users(): UserRow[] {
    const rng = this.userRng;
    const rows: UserRow[] = [];
    const taken = new Set<string>();
    DEMO_ACCOUNTS.forEach((account, i) => {
      const [first = '', last = ''] = account.fullname.split(' ');
      const created = this.now - 730 * DAY + i * HOUR;
      taken.add(account.username);
      this.userInfo.push({ id: this.userId(i), username: account.username, first, last });
      rows.push({
        id: this.userId(i),
        username: account.username,
        username_lower: account.username,
        email: `${account.username}@example.com`,
        email_lower: `${account.username}@example.com`,
        fullname: account.fullname,
        avatar_url: this.images.avatars[i % this.images.avatars.length] ?? null,
        status: 'active',
        is_admin: account.isAdmin ? 1 : 0,
        password_hash: this.passwordHash,
        created_at: created,
        updated_at: created,
      });
    });
    const domains = ['example.com', 'example.org', 'example.net'];
    for (let n = 0; n < this.generatedUsers; n++) {
      const index = FIRST_GENERATED_USER + n;
      const first = rng.pick(FIRST_NAMES);
      const last = rng.pick(LAST_NAMES);
      const username = uniqueUsername(rng, first, last, taken);
      const created = this.now - rng.int(1, 1100) * DAY - rng.int(0, DAY - 1);
      const updated = Math.min(this.now, created + rng.int(0, 300) * DAY);
      const email = `${username}@${rng.pick(domains)}`;
      this.userInfo.push({ id: this.userId(index), username, first, last });
      rows.push({
        id: this.userId(index),
        username,
        username_lower: username.toLowerCase(),
        email,
        email_lower: email.toLowerCase(),
        fullname: `${first} ${last}`,
        avatar_url: rng.chance(0.6) ? rng.pick(this.images.avatars) : null,
        status: this.pickStatus(rng),
        is_admin: 0,
        password_hash: this.passwordHash,
        created_at: created,
        updated_at: updated,
      });
    }
    return rows;
  }

  /** A generated user, skewed so that some are far more active than others. */
  private someUser(rng: Random, skew = 1.5): number {
    return FIRST_GENERATED_USER + Math.floor(this.generatedUsers * Math.pow(rng.next(), skew));
  }

  follows(): FollowRow[] {
    const rng = Random.fork(this.seed, 'follows');
    const target = Math.max(20, Math.round(this.total / 10));
    const userCount = this.userInfo.length;
    const perUser = target / userCount;
    const rows: FollowRow[] = [];
    for (let follower = 0; follower < userCount; follower++) {
      if (follower === ADMIN) continue;
      const chosen = new Set<number>();
      if (follower === UMA) [OLIVIA, CARLOS].forEach((u) => chosen.add(u));
      else if (follower !== OLIVIA && rng.chance(0.15)) chosen.add(OLIVIA);
      const want = Math.floor(perUser) + (rng.chance(perUser - Math.floor(perUser)) ? 1 : 0);
      for (let tries = 0; chosen.size < want && tries < want * 4; tries++) {
        const followee = this.someUser(rng, 1.3);
        if (followee !== follower) chosen.add(followee);
      }
      for (const followee of chosen) {
        rows.push({
          follower_id: this.userInfo[follower]?.id ?? '',
          followee_id: this.userInfo[followee]?.id ?? '',
          created_at: this.now - rng.int(1, 400) * DAY - rng.int(0, DAY - 1),
        });
      }
    }
    return rows;
  }

  // --- points --------------------------------------------------------------------------------

  /** Generates point `i` and everything hanging off it into the batch; returns its supertype. */
  point(i: number, batch: Batch): PointSupertype {
    const rng = this.pointRng;
    // the first points are one of each supertype in New York, so even a tiny seed has them all on the default view
    const supertype: PointSupertype =
      i < POINT_SUPERTYPES.length ? (POINT_SUPERTYPES[i] as PointSupertype) : this.pickSupertype(rng);
    const cityIndex = i < POINT_SUPERTYPES.length && this.newYork >= 0 ? this.newYork : this.pickCity(rng);
    this.pointCity[i] = cityIndex;
    const city = this.cities[cityIndex] as SeedCity;
    const category = (this.typePickers.get(supertype) as (r: Random) => Category)(rng);
    const id = this.pointId(i);
    const kind = kindName(category);
    const c = makeCtx(rng, city.city, kind);
    const long = rng.chance(0.3);
    const position = jitter(rng, city, supertype === 'virtualstore' ? 0.5 : 1);

    let title: string;
    let tagline: string | null;
    let description: string | null;
    let subtype: string | null = null;
    let group: BusinessGroup | null = null;
    let serviceOffer: string | null = null;
    switch (supertype) {
      case 'business': {
        group = businessGroup(category);
        if (category.key === 'restaurant') {
          const named = restaurantName(rng, c);
          title = named.title;
          subtype = named.cuisine;
        } else {
          title = businessName(rng, category, c);
        }
        tagline = businessTagline(rng, category, c);
        description = businessDescription(rng, title, group, c, long);
        break;
      }
      case 'poi':
        title = poiName(rng, category, c);
        ({ tagline, description } = poiText(rng, title, c, long));
        break;
      case 'virtualstore':
        ({ title, tagline, description } = virtualStoreText(rng, category.key, c, long));
        break;
      case 'service': {
        const text = serviceText(rng, category, c, long);
        ({ title, tagline, description } = text);
        serviceOffer = text.offer;
        break;
      }
      case 'experience':
        ({ title, tagline, description } = experienceText(rng, category, c, long));
        break;
      case 'rental':
        ({ title, tagline, description } = rentalText(rng, category, c, long));
        break;
      case 'helprequest':
        ({ title, tagline, description } = helpRequestText(rng, category.key, c));
        break;
      case 'incident':
        ({ title, tagline, description } = incidentText(rng, category.key, c));
        break;
    }
    if (rng.chance(0.04)) tagline = null;

    // ownership
    let owner = -1;
    if (rng.chance(OWNED[supertype])) {
      const oliviaChance = city.isNewYork ? this.oliviaChance.newYork : this.oliviaChance.elsewhere;
      const ownsOlivia = supertype !== 'helprequest' && supertype !== 'incident' && rng.chance(oliviaChance);
      owner = ownsOlivia ? OLIVIA : this.someUser(rng);
    }
    let consultant = -1;
    const consultable = supertype !== 'helprequest' && supertype !== 'incident';
    if (consultable && rng.chance(0.17)) {
      consultant = rng.chance(this.carlosChance) ? CARLOS : this.someUser(rng, 1.2);
      if (consultant === owner) consultant = -1;
    }

    // address
    const address = streetAddress(rng, city);
    const asCoordinates = rng.chance(0.03);
    const slug = slugOf(title, `xpoint-${id}`);

    // links
    const personal = supertype === 'service' || supertype === 'helprequest';
    const linkChance = supertype === 'incident' || supertype === 'helprequest' ? 0 : 1;
    const email =
      rng.chance((supertype === 'poi' ? 0.1 : 0.7) * linkChance) || (personal && rng.chance(0.5))
        ? personal
          ? `${slugOf(c.first, 'me')}.${slugOf(c.last, 'x')}@example.com`
          : `${rng.pick(['hello', 'info', 'contact', 'bookings'])}@${slug}.example.com`
        : null;
    const phone = rng.chance(supertype === 'poi' ? 0.1 : supertype === 'incident' ? 0 : 0.8)
      ? phoneNumber(rng, city)
      : null;
    const websiteChance = supertype === 'virtualstore' ? 1 : supertype === 'poi' ? 0.15 : 0.6 * linkChance;
    const website = rng.chance(websiteChance)
      ? rng.chance(0.1)
        ? `www.${slug}.example.com`
        : `https://${slug}.example.com`
      : null;
    const facebook = rng.chance(0.35 * linkChance) ? `https://facebook.com/${slug.replace(/-/g, '')}` : null;
    const xsites =
      consultable && rng.chance(0.2)
        ? JSON.stringify(
            rng
              .distinct(rng.int(1, 3), XSITES.length)
              .map((k) => XSITES[k] as (typeof XSITES)[number])
              .map((s) => ({
                icon: s.icon,
                title: s.title,
                url: `https://${s.host}${s.host.endsWith('@') ? '' : '/'}${slug.replace(/-/g, '')}`,
              })),
          )
        : null;

    // stats: total >= this month >= today, total >= previous month; some all zero
    const statsTotal = rng.chance(0.06) ? 0 : Math.floor(Math.exp(rng.float(0, 9.5))) - 1;
    const prevMonth = Math.floor(statsTotal * rng.float(0, 0.25));
    const thisMonth = Math.floor(statsTotal * rng.float(0, 0.15));
    const today = rng.chance(0.4) ? 0 : Math.floor(thisMonth * rng.float(0, 0.2));

    // opening hours
    let openingHours: string | null = null;
    if (rng.chance(HAS_OPENING_HOURS[supertype])) {
      openingHours = rng.chance(0.012)
        ? rng.pick(UNPARSEABLE_OPENING_HOURS)
        : rng.pick(OPENING_HOURS[group ?? supertype] ?? OPENING_HOURS['shop'] ?? ['24/7']);
    }

    // flags
    let beamtype = 0;
    if ((supertype === 'business' || supertype === 'experience' || supertype === 'poi') && rng.chance(0.02))
      beamtype |= BeamFlag.hot;
    if (supertype === 'helprequest')
      beamtype |= BeamFlag.helpRequest | (rng.chance(0.25) ? BeamFlag.urgentHelpRequest : 0);
    if (supertype === 'incident') beamtype |= BeamFlag.incident;
    if (supertype === 'service' && rng.chance(0.1)) beamtype |= BeamFlag.chat;

    // media
    const cover = rng.chance(supertype === 'incident' ? 0.3 : 0.85)
      ? this.coverFor(rng, supertype, category)
      : null;
    const logo =
      supertype !== 'incident' && supertype !== 'helprequest' && rng.chance(0.3)
        ? rng.pick(this.images.logos)
        : null;

    // times
    const created =
      supertype === 'incident'
        ? this.now - rng.int(10, 7 * 24 * 60) * MINUTE
        : supertype === 'helprequest'
          ? this.now - rng.int(1, 20 * 24) * HOUR
          : this.now - rng.int(1, 4 * 365) * DAY - rng.int(0, DAY - 1);
    const updated = Math.min(this.now, created + Math.floor((this.now - created) * rng.next()));

    const row: PointRow = {
      id,
      supertype,
      type: category.key,
      subtype,
      title,
      tagline,
      description,
      has_app:
        (supertype === 'virtualstore' && category.key === 'application') ||
        (supertype === 'business' && rng.chance(0.03))
          ? 1
          : 0,
      owner_userid: owner >= 0 ? (this.userInfo[owner]?.id ?? null) : null,
      consultant_userid: consultant >= 0 ? (this.userInfo[consultant]?.id ?? null) : null,
      allow_consulting: rng.chance(0.85) ? 1 : 0,
      city_id: city.id,
      full_address: asCoordinates ? `${position.lat.toFixed(6)},${position.lon.toFixed(6)}` : address.full,
      street: asCoordinates ? null : address.street,
      postalcode: asCoordinates ? null : address.postalcode,
      region: city.state,
      country: city.country,
      lat: position.lat,
      lon: position.lon,
      link_email: email,
      link_phone: phone,
      link_website: website,
      link_facebook: facebook,
      rating: null,
      rating_count: 0,
      health_status: rng.chance(supertype === 'business' ? 0.6 : 0.85) ? 0 : rng.chance(0.55) ? 1 : 2,
      xsites_json: xsites,
      stats_total: statsTotal,
      stats_prev_month: prevMonth,
      stats_this_month: thisMonth,
      stats_today: today,
      opening_hours: openingHours,
      time_zone_name: city.timeZone,
      resellerid: null,
      beamtype,
      marker: null,
      is_promo: supertype === 'business' && rng.chance(0.005) ? 1 : 0,
      url_icon_or_logo: logo,
      url_cover_video: null,
      url_cover_image: cover,
      pickup_destination: null,
      pickup_date_time: null,
      delivery_lat: null,
      delivery_lng: null,
      help_taskduration_minutes: null,
      help_taskbudget: null,
      help_taskstart: null,
      help_canacceptjob: null,
      help_canquote: null,
      meonmap_enabled: 0,
      meonmap_xpointid: null,
      xpoint_service: null,
      owner_dynamic_last_update: null,
      owner_callchat_priceperminute: null,
      created_at: created,
      updated_at: updated,
    };

    if (supertype === 'helprequest') {
      row.help_taskduration_minutes = rng.pick([15, 30, 45, 60, 90, 120, 180, 240, 360, 480]);
      row.help_taskbudget = rng.chance(0.5) ? rng.int(2, 60) * 5 : Math.round(rng.float(10, 400) * 100) / 100;
      row.help_taskstart = Math.ceil((this.now + rng.int(-24, 14 * 24) * HOUR) / (15 * MINUTE)) * 15 * MINUTE;
      row.help_canacceptjob = rng.chance(0.7) ? 1 : 0;
      row.help_canquote = rng.chance(0.5) ? 1 : 0;
      if (rng.chance(0.3)) {
        const destination = jitter(rng, city, 0.6);
        row.pickup_destination = streetAddress(rng, city).full;
        row.pickup_date_time = row.help_taskstart;
        row.delivery_lat = destination.lat;
        row.delivery_lng = destination.lon;
      }
    } else if (supertype === 'service') {
      row.meonmap_enabled = rng.chance(0.85) ? 1 : 0;
      row.xpoint_service = serviceOffer;
      row.owner_dynamic_last_update = this.now - Math.floor(Math.pow(rng.next(), 3) * 3 * DAY);
      row.owner_callchat_priceperminute = rng.int(50, 499) / 100;
    }

    // reviews make the rating: rating = average stars x 20, rating_count = reviews
    if (rng.chance(REVIEWED[supertype] * this.smallSeedBoost)) this.reviews(id, owner, row, batch);
    if (rng.chance(HOSTS_EVENTS[supertype] * this.smallSeedBoost))
      this.hostedEvents(row, owner, city, title, batch);
    if (supertype === 'business' && rng.chance(0.3)) this.contacts(id, owner, batch);
    if (rng.chance(0.05) && supertype !== 'incident') this.screenshots(id, batch);
    // a few standalone events, not tied to any point
    if (rng.chance(0.005)) this.standaloneEvent(batch);

    batch.points.push(row);
    return supertype;
  }

  private coverFor(rng: Random, supertype: PointSupertype, category: Category): string | null {
    const own =
      this.images.coverByKind.get(`${supertype}/${category.key}`) ??
      this.images.coverByIcon.get(category.icon);
    if (own && rng.chance(0.85)) return own;
    const list = this.images.covers[supertype];
    return list.length > 0 ? rng.pick(list) : rng.pick(this.images.allCovers);
  }

  private reviews(pointId: string, owner: number, row: PointRow, batch: Batch): void {
    const rng = this.relatedRng;
    const quality = rng.bell(3.9, 1.3, 1, 5);
    const count = Math.min(this.generatedUsers, 1 + Math.floor(-Math.log(1 - rng.next() * 0.999) * 0.9));
    const reviewers = rng.distinct(count, this.generatedUsers).map((u) => FIRST_GENERATED_USER + u);
    if (rng.chance(0.03)) reviewers[0] = UMA;
    let sum = 0;
    let written = 0;
    for (const user of reviewers) {
      if (user === owner) continue;
      const stars = Math.round(rng.bell(quality, 1.2, 1, 5));
      const created = row.created_at + Math.floor((this.now - row.created_at) * rng.next());
      batch.reviews.push({
        id: makeId(this.seed, 'review', this.reviewCount++),
        point_id: pointId,
        user_id: this.userInfo[user]?.id ?? '',
        stars,
        text: reviewText(rng, stars),
        created_at: created,
        updated_at: created,
      });
      sum += stars;
      written++;
    }
    if (written > 0) {
      row.rating = Math.round((sum / written) * 20);
      row.rating_count = written;
    }
  }

  private contacts(pointId: string, owner: number, batch: Batch): void {
    const rng = this.relatedRng;
    const count = rng.int(1, 3);
    const roles = [rng.chance(0.6) ? 'OWNR' : '_CEO', 'ADMN', 'CUST'];
    for (let position = 0; position < count; position++) {
      const roleid = roles[position] as string;
      const isOwner = roleid === 'OWNR' && owner >= 0;
      const user = isOwner
        ? this.userInfo[owner]
        : rng.chance(0.3)
          ? this.userInfo[this.someUser(rng)]
          : undefined;
      batch.contacts.push({
        point_id: pointId,
        roleid,
        roleoverride: roleid === 'CUST' ? rng.pick(CONTACT_ROLE_TEXTS) : null,
        contact_firstname: user?.first ?? rng.pick(FIRST_NAMES),
        contact_lastname: user?.last ?? rng.pick(LAST_NAMES),
        contact_username: user?.username ?? null,
        avatar_url: rng.chance(0.5) ? rng.pick(this.images.avatars) : null,
        position,
      });
    }
  }

  private screenshots(pointId: string, batch: Batch): void {
    const rng = this.relatedRng;
    const count = rng.int(1, 14);
    const pictures = rng.distinct(count, this.images.allCovers.length);
    for (let position = 1; position <= pictures.length; position++) {
      batch.screenshots.push({
        point_id: pointId,
        position,
        url: this.images.allCovers[pictures[position - 1] ?? 0] ?? '',
      });
    }
  }

  // --- events --------------------------------------------------------------------------------

  private hostedEvents(point: PointRow, owner: number, city: SeedCity, venue: string, batch: Batch): void {
    const rng = this.relatedRng;
    const count = rng.chance(0.8) ? 1 : rng.int(2, 3);
    let parent: string | null = null;
    for (let k = 0; k < count; k++) {
      const id = this.event(batch, {
        xpointId: point.id,
        ownerIndex: owner >= 0 ? owner : this.someUser(rng),
        lat: point.lat,
        lon: point.lon,
        fullAddress: point.full_address ?? null,
        city,
        venue,
        parentId: k > 0 && parent && rng.chance(0.3) ? parent : null,
      });
      parent ??= id;
    }
  }

  /** Adds standalone events until there are at least MIN_EVENTS. */
  topUpEvents(batch: Batch): void {
    while (this.eventCount < MIN_EVENTS) this.standaloneEvent(batch);
  }

  private standaloneEvent(batch: Batch): void {
    const rng = this.relatedRng;
    const city = this.cities[this.pickCity(rng)] as SeedCity;
    const position = jitter(rng, city);
    const address = streetAddress(rng, city);
    this.event(batch, {
      xpointId: null,
      ownerIndex: this.someUser(rng),
      lat: position.lat,
      lon: position.lon,
      fullAddress: address.full,
      city,
      venue: `${rng.pick(['Community Hall', 'the Old Library', 'Town Square', 'Riverside Park', 'the Warehouse'])}`,
      parentId: null,
    });
  }

  private event(
    batch: Batch,
    at: {
      xpointId: string | null;
      ownerIndex: number;
      lat: number;
      lon: number;
      fullAddress: string | null;
      city: SeedCity;
      venue: string;
      parentId: string | null;
    },
  ): string {
    const rng = this.relatedRng;
    const n = this.eventCount++;
    const id = makeId(this.seed, 'event', n);
    const type = this.pickEventType(rng);
    const c = makeCtx(rng, at.city.city, type.name);
    const { title, description } = eventText(rng, type.key, type.name, at.venue, c, rng.chance(0.3));
    const intervals = this.eventIntervals(
      rng,
      EVENT_TIMINGS[n % EVENT_TIMINGS.length] as EventTiming,
      at.lon,
    );
    const start = intervals[0]?.[0] ?? this.now;
    const end = intervals[intervals.length - 1]?.[1] ?? start;
    const admission = this.pickAdmission(rng);
    const price =
      admission === 'paid'
        ? rng.pick([5, 8, 10, 12, 15, 20, 25, 35, 45, 60, 85, 120]) - (rng.chance(0.3) ? 0.01 : 0)
        : admission === 'donation'
          ? rng.chance(0.6)
            ? rng.pick([5, 10, 20])
            : null
          : null;
    const cover = rng.chance(0.85)
      ? (this.images.coverByKind.get(`event/${type.key}`) ??
        this.images.coverByIcon.get(type.icon) ??
        rng.pick(this.images.covers.event))
      : null;
    const created = Math.min(start, this.now) - rng.int(1, 60) * DAY;
    batch.events.push({
      id,
      xpoint_id: at.xpointId,
      parent_id: at.parentId,
      owner_userid: this.userInfo[at.ownerIndex]?.id ?? null,
      title,
      cover_url: cover,
      type: type.key,
      subtype: null,
      start_date: start,
      end_date: end,
      lat: at.lat,
      lon: at.lon,
      full_address: at.fullAddress,
      city_id: at.city.id,
      admission,
      admissionprice: price,
      website: rng.chance(0.4) ? `https://${slugOf(title, 'event')}.example.com` : null,
      description,
      marker: null,
      created_at: created,
      updated_at: created + Math.floor((this.now - created) * rng.next() * 0.5),
    });
    for (const [s, e] of intervals) batch.intervals.push({ event_id: id, start_at: s, end_at: e });
    if (admission === 'paid' && price !== null && rng.chance(0.6)) {
      // General admission at the listed price, then up to two other options priced around it
      batch.tickets.push({
        event_id: id,
        name: 'General admission',
        unit_price: price,
        max_quantity: rng.pick([4, 6, 8, 10]),
      });
      for (const k of rng.distinct(rng.int(0, 2), TICKET_OPTIONS.length)) {
        const option = TICKET_OPTIONS[k] as (typeof TICKET_OPTIONS)[number];
        batch.tickets.push({
          event_id: id,
          name: option.name,
          unit_price: Math.max(1, Math.round(price * option.factor)) - 0.01,
          max_quantity: rng.pick([1, 2, 4, 6]),
        });
      }
    }
    return id;
  }

  /** Opening intervals for one event; the first decides whether it is current (map-and-search §4). */
  private eventIntervals(rng: Random, timing: EventTiming, lon: number): [number, number][] {
    const now = this.now;
    const offset = approximateOffsetMs(lon);
    const localDay = Math.floor((now + offset) / DAY) * DAY;
    const duration = rng.pick([60, 90, 120, 120, 180, 180, 240]) * MINUTE;
    const days = rng.chance(0.2) ? rng.int(2, 3) : 1;
    let first: [number, number];
    switch (timing) {
      case 'current': {
        // started 5 minutes to 2 hours ago, ends 30 minutes to 4 hours from now
        const startedAgo = rng.int(1, 24) * 5 * MINUTE;
        const start = Math.floor((now - startedAgo) / (5 * MINUTE)) * 5 * MINUTE;
        first = [start, Math.ceil((now + rng.int(6, 48) * 5 * MINUTE) / (5 * MINUTE)) * 5 * MINUTE];
        break;
      }
      case 'upcoming': {
        // starts within the next 120 minutes, on a five-minute mark
        const start = Math.ceil(now / (5 * MINUTE)) * 5 * MINUTE + rng.int(1, 21) * 5 * MINUTE;
        first = [start, start + duration];
        break;
      }
      case 'later': {
        const start =
          localDay +
          rng.int(1, 60) * DAY +
          rng.pick([10, 11, 12, 14, 17, 18, 19, 19.5, 20, 21]) * HOUR -
          offset;
        first = [start, start + duration];
        break;
      }
      case 'past': {
        // single intervals ending before local midnight of yesterday: always over
        const start =
          localDay - rng.int(1, 120) * DAY + rng.pick([9, 10, 12, 14, 16, 18, 19, 20]) * HOUR - offset;
        return [[start, start + Math.min(duration, 4 * HOUR)]];
      }
    }
    const intervals: [number, number][] = [first];
    for (let d = 1; d < days; d++) intervals.push([first[0] + d * DAY, first[1] + d * DAY]);
    return intervals;
  }

  // --- posts, comments, likes ----------------------------------------------------------------

  postCount(): number {
    return Math.max(30, Math.round(this.total / 20));
  }

  post(i: number, batch: Batch): void {
    const rng = this.postRng;
    const category = i < POST_CATEGORIES.length ? (POST_CATEGORIES[i] as string) : this.pickPostCategory(rng);
    const author = rng.chance(0.04) ? OLIVIA : rng.chance(0.03) ? UMA : this.someUser(rng, 1.3);
    let cityIndex: number;
    let xpointId: string | null = null;
    if (this.total > 0 && rng.chance(0.3)) {
      const pointIndex = rng.int(0, this.total - 1);
      cityIndex = this.pointCity[pointIndex] ?? 0;
      xpointId = this.pointId(pointIndex);
    } else {
      cityIndex = i < POST_CATEGORIES.length && this.newYork >= 0 ? this.newYork : this.pickCity(rng);
    }
    const city = this.cities[cityIndex] as SeedCity;
    const c: Ctx = makeCtx(rng, city.city, category);
    const text = postText(rng, category, c);
    // expiry: not set, already expired, or in the future
    const expiry =
      i < 3
        ? (['none', 'past', 'future'] as const)[i]
        : rng.weighted(['none', 'past', 'future'] as const, [40, 20, 40]);
    let created = this.now - Math.floor(Math.pow(rng.next(), 1.5) * 45 * DAY);
    let expires: number | null = null;
    if (expiry === 'past') {
      expires = this.now - rng.int(1, 20 * 24) * HOUR;
      created = expires - rng.int(1, 30) * DAY;
    } else if (expiry === 'future') {
      expires = this.now + rng.int(1, 60) * DAY;
    }
    const withImage = rng.chance(0.55);
    const id = makeGuid(rng);
    batch.posts.push({
      id,
      user_id: this.userInfo[author]?.id ?? '',
      title: text.title,
      description: text.description,
      type: category,
      city_id: city.id,
      xpoint_id: xpointId,
      parent_type: xpointId ? 'X' : null,
      image_url: withImage ? rng.pick(this.images.allCovers) : null,
      image_placeholder: withImage
        ? null
        : (POST_PLACEHOLDERS as readonly string[]).includes(text.placeholder)
          ? text.placeholder
          : rng.pick(POST_PLACEHOLDERS),
      video_url: null,
      file_resource_bitmask: withImage ? 1 : 0,
      expires_at: expires,
      created_at: created,
      updated_at: created + (rng.chance(0.2) ? rng.int(1, 48) * HOUR : 0),
    });

    // about two comments and four likes per post
    const commentCount = rng.int(0, 4);
    for (let k = 0; k < commentCount; k++) {
      const at = created + Math.floor((this.now - created) * rng.next());
      batch.comments.push({
        id: makeId(this.seed, 'comment', this.commentCount++),
        object_id: id,
        object_type: 'P',
        user_id: this.userInfo[rng.chance(0.05) ? UMA : this.someUser(rng, 1.3)]?.id ?? '',
        text: rng.pick(COMMENT_TEXTS),
        created_at: at,
        updated_at: at,
      });
    }
    const likers = rng.distinct(rng.int(0, 8), this.generatedUsers).map((u) => FIRST_GENERATED_USER + u);
    if (rng.chance(0.05) && author !== UMA) likers.push(UMA);
    for (const user of likers) {
      batch.likes.push({
        id: makeId(this.seed, 'like', this.likeCount++),
        user_id: this.userInfo[user]?.id ?? '',
        object_id: id,
        object_type: 'P',
        like_type: rng.chance(0.85) ? 0 : 1,
        created_at: created + Math.floor((this.now - created) * rng.next()),
      });
    }
  }
}

/**
 * A username from a person's name, unique case-insensitively, of letters, digits, `_` and `-` only
 * (the accounts rule): "sofia-rossi", "srossi", "sofia_rossi7".
 */
function uniqueUsername(rng: Random, first: string, last: string, taken: Set<string>): string {
  const f = slugOf(first, 'user').replace(/-/g, '');
  const l = slugOf(last, 'x').replace(/-/g, '');
  const base = rng.pick([
    `${f}-${l}`,
    `${f}${l}`,
    `${f}_${l}`,
    `${f[0] ?? 'x'}${l}`,
    `${f}${l[0] ?? ''}`,
    `${l}-${f}`,
  ]);
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++)
    candidate = `${base}${n <= 9 ? n : rng.int(10, 9999)}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
