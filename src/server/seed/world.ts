/**
 * The demo data generator's world: its seed and clock, the cities, images and users made so far,
 * the random streams and pickers, and the counters that make ids. The generators of users, points,
 * events and posts (users.ts, points.ts, events.ts, posts.ts) read and advance it in a fixed order,
 * which is what keeps the output deterministic.
 */
import { categoriesFor, type Category } from '../../shared/domain/categories';
import { ADMISSIONS, POST_CATEGORIES, USER_STATUSES } from '../../shared/domain/enums';
import { POINT_SUPERTYPES, type PointSupertype } from '../../shared/domain/supertypes';
import { BUSINESS_TYPE_WEIGHTS } from './content';
import type { ImageSet } from './images';
import { DemoInbox } from './notifications';
import type { LandMask } from './land';
import { cityPicker, jitterOnLand, type SeedCity } from './places';
import { Random, makeId, weightedPicker } from './random';
import type { Sink, TableSpec } from './sink';
import {
  CLAIMS,
  COMMENTS,
  CONSULT_REQUESTS,
  CONTACTS,
  EVENTS,
  EVENT_INTERVALS,
  EVENT_TICKETS,
  LIKES,
  POINTS,
  POSTS,
  REVIEWS,
  SCREENSHOTS,
  type ClaimRow,
  type CommentRow,
  type ConsultRequestRow,
  type ContactRow,
  type EventRow,
  type IntervalRow,
  type LikeRow,
  type PointRow,
  type PostRow,
  type ReviewRow,
  type ScreenshotRow,
  type TicketRow,
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

export const ADMIN = 0;
export const OLIVIA = 1;
export const CARLOS = 2;
export const UMA = 3;
export const FIRST_GENERATED_USER = DEMO_ACCOUNTS.length;

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
  /** the demo accounts' notifications (seed/notifications.ts) */
  notifications: number;
  /** owners' public answers among the reviews */
  reviewReplies: number;
  /** pending claims and requests to consult (issue 16): src/server/seed/requests.ts */
  claims: number;
  consultRequests: number;
  mediaAssets: number;
  elapsedMs: number;
}

/** Shares of each supertype among generated points. */
export const SUPERTYPE_SHARES: Readonly<Record<PointSupertype, number>> = {
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
export const OWNED: Readonly<Record<PointSupertype, number>> = {
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
export const REVIEWED: Readonly<Record<PointSupertype, number>> = {
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
export const HOSTS_EVENTS: Readonly<Record<PointSupertype, number>> = {
  business: 0.09,
  poi: 0.08,
  virtualstore: 0,
  service: 0.02,
  experience: 0.3,
  rental: 0.02,
  helprequest: 0,
  incident: 0,
};

export const EVENT_TYPE_WEIGHTS: Readonly<Record<string, number>> = {
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
export const HAS_OPENING_HOURS: Readonly<Record<PointSupertype, number>> = {
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
export const TICKET_OPTIONS = [
  { name: 'Early bird', factor: 0.8 },
  { name: 'Student', factor: 0.6 },
  { name: 'VIP', factor: 2.5 },
  { name: 'Group of 4', factor: 3.5 },
  { name: 'Child (under 12)', factor: 0.5 },
  { name: 'Front row', factor: 1.8 },
] as const;

/** Fewest events, whatever the number of points (standalone events top up small seeds). */
export const MIN_EVENTS = 20;

/**
 * Event timing, cycled so that every mix of a few dozen events has all four kinds:
 * past, running now, starting within 120 minutes, and later.
 */
export type EventTiming = 'past' | 'current' | 'upcoming' | 'later';
export const EVENT_TIMINGS: readonly EventTiming[] = [
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

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface UserInfo {
  id: string;
  username: string;
  first: string;
  last: string;
  /** status 'active': the one a claim or a request to consult is made by */
  active: boolean;
}

export class Batch {
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
  claims: ClaimRow[] = [];
  consultRequests: ConsultRequestRow[] = [];

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
    counts.reviewReplies += this.reviews.filter((review) => review.reply_text).length;
    await put(POSTS, this.posts, 'posts');
    await put(COMMENTS, this.comments, 'comments');
    await put(LIKES, this.likes, 'likes');
    await put(CLAIMS, this.claims, 'claims');
    await put(CONSULT_REQUESTS, this.consultRequests, 'consultRequests');
  }
}

type CountKey = Exclude<keyof SeedSummary, 'bySupertype'>;

export class SeedWorld {
  readonly userRng: Random;
  readonly pointRng: Random;
  readonly relatedRng: Random;
  readonly postRng: Random;
  /** the demo claims' and requests' own stream (requests.ts) */
  readonly requestRng: Random;
  /** the owners' answers to reviews, their own stream so the other rows stay as they were */
  readonly replyRng: Random;
  /** the demo accounts' notifications, collected as their things are liked, reviewed, followed */
  readonly inbox: DemoInbox;
  readonly pickCity: (rng: Random) => number;
  readonly pickSupertype: (rng: Random) => PointSupertype;
  readonly typePickers: Map<PointSupertype, (rng: Random) => Category>;
  readonly pickEventType: (rng: Random) => Category;
  /** the event categories, for hosts that pick among the types that fit them. */
  readonly eventTypes: readonly Category[];
  readonly pickPostCategory: (rng: Random) => string;
  readonly pickStatus: (rng: Random) => string;
  readonly pickAdmission = weightedPicker(ADMISSIONS, [45, 40, 15]);
  readonly userInfo: UserInfo[] = [];
  readonly generatedUsers: number;
  /** the city (index into cities) of every point, for posts that mention a point. */
  readonly pointCity: Int32Array;
  readonly newYork: number;
  readonly oliviaChance: { newYork: number; elsewhere: number };
  readonly carlosChance: number;
  /** small seeds get proportionally more reviews and events, so the minimums hold. */
  readonly smallSeedBoost: number;
  eventCount = 0;
  reviewCount = 0;
  commentCount = 0;
  likeCount = 0;
  claimCount = 0;
  consultRequested = false;

  constructor(
    readonly seed: number,
    readonly now: number,
    readonly total: number,
    readonly cities: readonly SeedCity[],
    readonly images: ImageSet,
    readonly passwordHash: string,
    /** where the coast is (land.ts); null: every spot counts as land (the map was never built). */
    readonly land: LandMask | null = null,
  ) {
    this.userRng = Random.fork(seed, 'users');
    this.pointRng = Random.fork(seed, 'points');
    this.relatedRng = Random.fork(seed, 'related');
    this.postRng = Random.fork(seed, 'posts');
    this.requestRng = Random.fork(seed, 'requests');
    this.replyRng = Random.fork(seed, 'replies');
    this.inbox = new DemoInbox(DEMO_ACCOUNTS.map((_, i) => makeId(seed, 'user', i)));
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
    this.eventTypes = eventTypes;
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

  /** A position near the city on land (places.ts jitter, redrawn while it falls in the water). */
  place(rng: Random, city: SeedCity, scale = 1): { lat: number; lon: number } {
    return jitterOnLand(rng, city, scale, this.land);
  }

  userId(index: number): string {
    return makeId(this.seed, 'user', index);
  }

  pointId(index: number): string {
    return makeId(this.seed, 'point', index);
  }

  /** A generated user, skewed so that some are far more active than others. */
  someUser(rng: Random, skew = 1.5): number {
    return FIRST_GENERATED_USER + Math.floor(this.generatedUsers * Math.pow(rng.next(), skew));
  }
}
