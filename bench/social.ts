/**
 * Social benchmark (issue 18): `npm run bench:social -- [--posts 1000000] [--likes 5000000]
 * [--comments 2000000] [--reviews 200000] [--requests 2000] [--postgres]`.
 *
 * Fills one temporary store (SQLite under $TMP, removed at the end; with --postgres, a schema of
 * TEST_DATABASE_URL, dropped at the end) in bulk, deterministically (seeded random): 10,000 users,
 * 20,000 points, `--posts` posts, `--likes` likes on posts (skewed: a few posts carry thousands, one
 * (post 1) carries 9,000; like_counts set from the likes by the product's own recount), `--comments` comments
 * (one post carries a thread of 10,000; comments_count set), `--reviews` reviews (one point carries
 * 10,000; the points' rating and rating_count set). Secondary indexes are dropped during the load and
 * built once after it (a sorted build), and the store is analyzed, as a store in use would be.
 *
 * Then times, in process and one call at a time through the real services, as their routes call them
 * (the viewer a signed-in bench user; the routes' rate limiters are not in the call, and no listener is
 * attached to the social events: notifications and live pushes run after the answer in the product):
 * 1. likes: LikeService.add then LikeService.remove on a random post by a user who has not liked it;
 *    peer: the same reads and the same write without the counter table, answering the counts with
 *    count(*) over the object's likes (index-only on likes_object). Once on random posts, once on the
 *    most liked post (9,000 likes). Ours and the peer alternate on the same (post, user) pairs.
 * 2. comments: CommentService.page (POST /v1/webonly/comment/loadpage_beforeid): the post read for its
 *    counter, then 11 rows of the index (object_type, object_id, id) walked backwards from `beforeid`,
 *    joined to their authors. Peer: the same page read with `order by id desc limit 11 offset N`, which
 *    walks and throws away the N newer comments first (what a page-number API does). Pages: page 1 of
 *    random posts, page 1 of the thread, and the page just past 90% of the thread (`beforeid` for ours,
 *    the offset for the peer).
 * 3. reviews: ReviewService.page (POST /review/reviews): page 1 of random points, page 1 of the
 *    10,000-review point, and the page 90% deep in it by the keyset cursor (`before`: one range of the
 *    index (point_id, created_at, id) walked backwards from the cursor) against the same page by the
 *    spec's `pagenumber` (peer: OFFSET on the same index, through the same service). Both answer the
 *    same reviews (checked once before timing).
 * 4. exactness: 1,000 concurrent likes on one post by 1,000 different users and 1,000 concurrent
 *    identical adds by one user on another post, then like_counts against count(*) of the likes.
 *    Exits non-zero when they differ.
 * Each timed phase warms both sides with the same number of calls, then stops after PHASE_LIMIT_MS
 * or `--requests` samples. Prints a table of p50/p99, ratios, the counts and PASS/MISS per budget.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../src/server/store/schema';
import type { Viewer } from '../src/shared/permissions';
import { CommentService } from '../src/server/features/comments/service';
import { commentTimePrefix } from '../src/server/features/comments/ids';
import { LikeService, type LikeHooks } from '../src/server/features/likes/service';
import * as likeQueries from '../src/server/features/likes/queries';
import { ReviewService } from '../src/server/features/reviews/service';
import { SocialEvents } from '../src/server/features/social/events';
import type { Store } from '../src/server/store/store';
import { arg, log, openBenchStore, pct, random } from './support';

const POSTS = Math.max(10, Number(arg('posts', '1000000')));
const LIKES = Number(arg('likes', '5000000'));
const COMMENTS = Number(arg('comments', '2000000'));
const REVIEWS = Number(arg('reviews', '200000'));
const REQUESTS = Number(arg('requests', '2000'));
const POSTGRES = process.argv.includes('--postgres');
const USERS = 10_000;
const POINTS = 20_000;
const THREAD = Math.min(10_000, COMMENTS);
const HEAVY_REVIEWS = Math.min(10_000, USERS, REVIEWS);
/** no post is liked by more people than this: the others are left to like it in phase 1 */
const MOST_LIKES = USERS - 1000;
const COMMENT_PAGE = 10;
const REVIEW_PAGE = 20;
const PHASE_LIMIT_MS = 15_000;
const WARMUP = 200;
const CONCURRENT = 1000;
const BUDGET_LIKE_P99_MS = 5;
const BUDGET_COMMENTS_P99_MS = 5;
const BUDGET_RATIO = 10;
const BUDGET_REVIEWS_P99_MS = 5;
/** the thread's post; the last two posts are kept without likes for phase 4 */
const THREAD_POST = 0;
const EXACT_MANY_POST = POSTS - 1;
const EXACT_ONE_POST = POSTS - 2;
const LIKED_POSTS = POSTS - 2;
const HEAVY_POINT = 0;
/** the most liked post: MOST_LIKES likes (the likes are skewed: floor(n * r²) for a uniform r) */
const HOT_POST = 1;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const hex = (n: number) => n.toString(16).padStart(12, '0');
const postId = (n: number) => `00000000-0000-4000-8000-${hex(n)}`;
const pointId = (n: number) => `00000000-0000-4000-a000-${hex(n)}`;
const likeId = (n: number) => `00000000-0000-4000-9000-${hex(n)}`;
const reviewId = (n: number) => `00000000-0000-4000-b000-${hex(n)}`;
const userId = (n: number) => `benchuser${n}`;
const viewerOf = (n: number): Viewer => ({ id: userId(n), username: `bench${n}`, isAdmin: false });
/** the first of a post's likers (they are the next `likes` users after it, modulo USERS) */
const likerBase = (post: number) => (post * 7919) % USERS;

type Value = string | number | null;
/** A column and its PostgreSQL array type for unnest. */
type Column = [name: string, pgType: 'text' | 'int' | 'bigint' | 'float8'];

/**
 * Writes `count` rows made by `row` into `table`: SQLite through one prepared statement, committing
 * every 100,000 rows; PostgreSQL 5,000 rows a statement through unnest of one array per column.
 */
async function bulk(
  store: Store,
  table: string,
  columns: Column[],
  count: number,
  row: (i: number) => Value[],
): Promise<void> {
  const names = columns.map(([name]) => name).join(', ');
  const raw = store.raw;
  if (raw.kind === 'sqlite') {
    const insert = raw.database.prepare(
      `insert into ${table} (${names}) values (${columns.map(() => '?').join(', ')})`,
    );
    const chunk = raw.database.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) insert.run(...row(i));
    });
    for (let from = 0; from < count; from += 100_000) chunk(from, Math.min(count, from + 100_000));
    return;
  }
  const text = `insert into ${table} (${names}) select * from unnest(${columns
    .map(([, type], at) => `$${at + 1}::${type}[]`)
    .join(', ')})`;
  for (let from = 0; from < count; from += 5000) {
    const arrays: Value[][] = columns.map(() => []);
    for (let i = from; i < Math.min(count, from + 5000); i++) {
      const values = row(i);
      for (let c = 0; c < columns.length; c++) arrays[c]!.push(values[c] ?? null);
    }
    await raw.pool.query(text, arrays);
  }
}

/** Runs `load` with the table's secondary indexes dropped, then builds them again (one sorted build each). */
async function withoutIndexes(store: Store, table: string, load: () => Promise<void>): Promise<void> {
  const indexes =
    store.dialect === 'sqlite'
      ? (
          await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
            where type = 'index' and tbl_name = ${table} and sql is not null`.execute(store.db)
        ).rows
      : (
          await sql<{ name: string; sql: string }>`select indexname as name, indexdef as sql from pg_indexes
            where tablename = ${table} and schemaname = current_schema()
              and indexname not in (select conname from pg_constraint)`.execute(store.db)
        ).rows;
  for (const index of indexes) await sql.raw(`drop index ${index.name}`).execute(store.db);
  await load();
  for (const index of indexes) await sql.raw(index.sql).execute(store.db);
}

interface Filled {
  /** the most liked post and its number of likes */
  hotPost: number;
  hotLikes: number;
  /** likes per post (the likers of post p are users likerBase(p) .. + likes[p] - 1, modulo USERS) */
  likesOf: Int32Array;
  commentsOf: Int32Array;
  deepBefore: string;
  deepOffset: number;
  seconds: number;
}

async function fill(store: Store): Promise<Filled> {
  const started = performance.now();
  const now = Date.now();
  const rng = random(18);
  const day = 86_400_000;
  // the posts' change feed (map and search) is off while loading, as in the other benches
  for (const s of ['ai', 'au', 'ad'])
    await sql
      .raw(
        store.dialect === 'sqlite'
          ? `drop trigger posts_changes_${s}`
          : `drop trigger posts_changes_${s} on posts`,
      )
      .execute(store.db);
  // SQLite: the rows are consistent by construction; the foreign keys are checked again at the end
  if (store.raw.kind === 'sqlite') store.raw.database.pragma('foreign_keys = OFF');

  log(`loading ${USERS} users, ${POINTS} points with ${REVIEWS} reviews`);
  await bulk(
    store,
    'users',
    [
      ['id', 'text'],
      ['username', 'text'],
      ['username_lower', 'text'],
      ['email', 'text'],
      ['email_lower', 'text'],
      ['fullname', 'text'],
      ['status', 'text'],
      ['is_admin', 'int'],
      ['created_at', 'bigint'],
      ['updated_at', 'bigint'],
    ],
    USERS,
    (i) => [
      userId(i),
      `bench${i}`,
      `bench${i}`,
      `bench${i}@example.com`,
      `bench${i}@example.com`,
      `Bench ${i}`,
      'active',
      0,
      now - 365 * day,
      now - 365 * day,
    ],
  );
  // users in the order of their ids (benchuser10 sorts before benchuser2): rows are written in the
  // order of the unique keys that start with the user, so those indexes grow at their end
  const byId = Array.from({ length: USERS }, (_, i) => i).sort((a, b) =>
    userId(a) < userId(b) ? -1 : userId(a) > userId(b) ? 1 : 0,
  );
  const rank = new Int32Array(USERS);
  byId.forEach((user, at) => (rank[user] = at));

  // reviews: the heavy point has one by each of HEAVY_REVIEWS users, one a minute up to now; the rest
  // spread over the other points, mostly 4 and 5 stars
  const reviewsOf = new Int32Array(POINTS);
  reviewsOf[HEAVY_POINT] = HEAVY_REVIEWS;
  for (let i = HEAVY_REVIEWS; i < REVIEWS; i++) {
    let point = 1 + Math.floor(rng() * (POINTS - 1));
    while (reviewsOf[point]! >= USERS) point = 1 + Math.floor(rng() * (POINTS - 1));
    reviewsOf[point]!++;
  }
  const reviewRows: Value[][] = [];
  const stars = new Float64Array(POINTS);
  for (let point = 0; point < POINTS; point++) {
    const base = (point * 104729) % USERS;
    const users = Array.from({ length: reviewsOf[point]! }, (_, j) => (base + j) % USERS).sort(
      (a, b) => rank[a]! - rank[b]!,
    );
    users.forEach((user, j) => {
      const star = rng() < 0.6 ? 5 : 1 + Math.floor(rng() * 5);
      stars[point]! += star;
      const at =
        point === HEAVY_POINT ? now - (HEAVY_REVIEWS - j) * 60_000 : now - Math.floor(rng() * 365 * day);
      reviewRows.push([
        reviewId(reviewRows.length),
        pointId(point),
        userId(user),
        star,
        `Review ${reviewRows.length}: good place.`,
        at,
        at,
      ]);
    });
  }
  await bulk(
    store,
    'points',
    [
      ['id', 'text'],
      ['supertype', 'text'],
      ['type', 'text'],
      ['title', 'text'],
      ['lat', 'float8'],
      ['lon', 'float8'],
      ['rating', 'float8'],
      ['rating_count', 'int'],
      ['created_at', 'bigint'],
      ['updated_at', 'bigint'],
    ],
    POINTS,
    (i) => [
      pointId(i),
      'business',
      'shop',
      `Shop ${i}`,
      -60 + 120 * rng(),
      -180 + 360 * rng(),
      // the rating as the reviews' refreshRating writes it: the average stars times 20, rounded
      reviewsOf[i]! === 0 ? null : Math.round((stars[i]! / reviewsOf[i]!) * 20),
      reviewsOf[i]!,
      now - 400 * day,
      now - 400 * day,
    ],
  );
  await withoutIndexes(store, 'reviews', () =>
    bulk(
      store,
      'reviews',
      [
        ['id', 'text'],
        ['point_id', 'text'],
        ['user_id', 'text'],
        ['stars', 'int'],
        ['text', 'text'],
        ['created_at', 'bigint'],
        ['updated_at', 'bigint'],
      ],
      reviewRows.length,
      (i) => reviewRows[i]!,
    ),
  );
  reviewRows.length = 0;
  log(`users, points and reviews loaded in ${seconds(started)}`);

  // comments: the thread's one a minute up to now; the rest spread over 90 days on random posts
  const commentsOf = new Int32Array(POSTS);
  const comments: { post: number; at: number }[] = [];
  for (let i = 0; i < COMMENTS; i++) {
    const post = i < THREAD ? THREAD_POST : 1 + Math.floor(rng() * (LIKED_POSTS - 1));
    commentsOf[post]!++;
    comments.push({
      post,
      at: i < THREAD ? now - (THREAD - i) * 60_000 : now - Math.floor(rng() * 90 * day),
    });
  }
  // written in time order, as they would have been: the primary key grows at its end
  comments.sort((x, y) => x.at - y.at);

  // likes: post floor(n * r²) for a uniform r (a few posts carry thousands), at most MOST_LIKES each
  const likesOf = new Int32Array(POSTS);
  for (let i = 0; i < LIKES; i++) {
    let post = i < MOST_LIKES ? HOT_POST : Math.floor(LIKED_POSTS * rng() ** 2);
    while (likesOf[post]! >= MOST_LIKES) post = Math.floor(LIKED_POSTS * rng());
    likesOf[post]!++;
  }
  let hotPost = 0;
  for (let p = 0; p < LIKED_POSTS; p++) if (likesOf[p]! > likesOf[hotPost]!) hotPost = p;
  // the post of each like, grouped by user (in the order of the ids), posts ascending within a user
  const perUser = new Int32Array(USERS + 1);
  for (let p = 0; p < LIKED_POSTS; p++)
    for (let j = 0; j < likesOf[p]!; j++) perUser[rank[(likerBase(p) + j) % USERS]! + 1]!++;
  for (let u = 0; u < USERS; u++) perUser[u + 1]! += perUser[u]!;
  const next = perUser.slice(0, USERS);
  const likePost = new Int32Array(LIKES);
  const likeNth = new Int32Array(LIKES);
  for (let p = 0; p < LIKED_POSTS; p++)
    for (let j = 0; j < likesOf[p]!; j++) {
      const at = next[rank[(likerBase(p) + j) % USERS]!]!++;
      likePost[at] = p;
      likeNth[at] = j;
    }
  let likeUser = 0;

  log(`loading ${POSTS} posts`);
  await withoutIndexes(store, 'posts', () =>
    bulk(
      store,
      'posts',
      [
        ['id', 'text'],
        ['user_id', 'text'],
        ['title', 'text'],
        ['description', 'text'],
        ['type', 'text'],
        ['image_placeholder', 'text'],
        ['file_resource_bitmask', 'int'],
        ['created_at', 'bigint'],
        ['updated_at', 'bigint'],
        ['listed_at', 'bigint'],
        ['comments_count', 'int'],
      ],
      POSTS,
      (i) => {
        const at = now - 100 * day + i;
        return [
          postId(i),
          userId(i % USERS),
          `Post ${i}`,
          'A benchmark post.',
          'deal',
          'deal',
          0,
          at,
          at,
          at,
          commentsOf[i]!,
        ];
      },
    ),
  );
  log(
    `posts loaded and indexed in ${seconds(started)}; loading ${COMMENTS} comments (a thread of ${THREAD})`,
  );
  const threadIds: string[] = [];
  await withoutIndexes(store, 'comments', () =>
    bulk(
      store,
      'comments',
      [
        ['id', 'text'],
        ['object_id', 'text'],
        ['object_type', 'text'],
        ['user_id', 'text'],
        ['text', 'text'],
        ['created_at', 'bigint'],
        ['updated_at', 'bigint'],
      ],
      COMMENTS,
      (i) => {
        const { post, at } = comments[i]!;
        // the time-ordered id the service writes, with the row number as its unique tail
        const id = commentTimePrefix(at) + i.toString(36).padStart(7, '0');
        if (post === THREAD_POST) threadIds.push(id);
        return [id, postId(post), 'P', userId((i * 31) % USERS), `Comment ${i}: looks good to me.`, at, at];
      },
    ),
  );
  comments.length = 0;
  log(`comments loaded and indexed in ${seconds(started)}; loading ${LIKES} likes`);
  await withoutIndexes(store, 'likes', () =>
    bulk(
      store,
      'likes',
      [
        ['id', 'text'],
        ['user_id', 'text'],
        ['object_id', 'text'],
        ['object_type', 'text'],
        ['like_type', 'int'],
        ['created_at', 'bigint'],
      ],
      LIKES,
      (i) => {
        while (perUser[likeUser + 1]! <= i) likeUser++;
        const post = likePost[i]!;
        const nth = likeNth[i]!;
        return [
          likeId(i),
          userId(byId[likeUser]!),
          postId(post),
          'P',
          // one in ten a dislike
          (post * 31 + nth * 17) % 10 === 0 ? 1 : 0,
          now - ((post * 13 + nth * 7919) % (90 * 1440)) * 60_000,
        ];
      },
    ),
  );
  log(`likes loaded and indexed in ${seconds(started)}; counting them into like_counts`);
  // the product's own repair: like_counts from the likes
  await likeQueries.recountLikes(store.db);
  if (store.raw.kind === 'sqlite') {
    store.raw.database.pragma('foreign_keys = ON');
    const broken = store.raw.database.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0) throw new Error(`the load broke ${broken.length} foreign keys`);
  }
  if (store.dialect === 'sqlite') await sql`analyze`.execute(store.db);
  else await sql`vacuum analyze`.execute(store.db);
  const took = (performance.now() - started) / 1000;
  log(`store filled and analyzed in ${took.toFixed(1)} s`);
  // the page just past 90% of the thread, newest first: its beforeid is the comment above it
  threadIds.sort();
  const deepOffset = Math.floor(THREAD * 0.9);
  return {
    hotPost,
    hotLikes: likesOf[hotPost]!,
    likesOf,
    commentsOf,
    deepBefore: threadIds[threadIds.length - deepOffset] ?? '',
    deepOffset,
    seconds: took,
  };
}

interface Sample {
  p50: number;
  p99: number;
  /** this process's CPU time per call: what a call costs when it need not wait for a core (on
   * PostgreSQL the server's share is not in it) */
  cpu99: number;
  n: number;
}
/** One call's wall-clock time and this process's CPU time, in ms. */
interface Timing {
  wall: number;
  cpu: number;
}
const summary = (took: Timing[]): Sample => {
  const wall = took.map((t) => t.wall).sort((a, b) => a - b);
  const cpu = took.map((t) => t.cpu).sort((a, b) => a - b);
  return { p50: pct(wall, 50), p99: pct(wall, 99), cpu99: pct(cpu, 99), n: took.length };
};

/**
 * Times each of `sides` once per round, in turn (the first side alternating from round to round), so
 * both see the same machine: WARMUP rounds untimed, then up to REQUESTS rounds or PHASE_LIMIT_MS. A
 * side's run answers the times of its calls (a like's add and remove are two).
 */
async function rounds(sides: Array<(round: number) => Promise<Timing[]>>): Promise<Sample[][]> {
  for (let i = 0; i < WARMUP; i++) for (const side of sides) await side(i);
  const took: Timing[][][] = sides.map(() => []);
  const until = performance.now() + PHASE_LIMIT_MS;
  for (let i = 0; i < REQUESTS && performance.now() < until; i++)
    for (let s = 0; s < sides.length; s++) {
      const at = (s + i) % sides.length;
      const times = await sides[at]!(WARMUP + i);
      times.forEach((t, k) => (took[at]![k] ??= []).push(t));
    }
  return took.map((side) => side.map(summary));
}

/** Runs `call` and answers how long it took. */
async function timed(call: () => Promise<unknown>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await call();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

interface Line {
  name: string;
  ours: Sample;
  peer?: Sample;
  budget?: { text: string; pass: boolean };
}

async function main(): Promise<void> {
  const { store, dispose } = await openBenchStore('social', POSTGRES);
  let exact: boolean;
  try {
    const filled = await fill(store);
    const social = new SocialEvents((error) => {
      throw error;
    });
    const likes = new LikeService(store, social);
    const comments = new CommentService(store, social);
    const reviews = new ReviewService(store, { social, publicUrl: 'http://127.0.0.1' });
    // the routes' daily like limits are a rate limiter (memory or Redis) in front of the store: not timed
    const hooks: LikeHooks = { check: async () => {}, count: async () => {} };
    const db = store.db;
    const lines: Line[] = [];
    const rng = random(7);

    // 1. likes -----------------------------------------------------------------------------------
    /** a user who has not liked `post` (the post's likers are a run of users from likerBase) */
    const outsider = (post: number) => {
      const liked = filled.likesOf[post]!;
      return (likerBase(post) + liked + Math.floor(rng() * (USERS - liked))) % USERS;
    };
    const oursLike = async (post: number, user: number) => {
      const viewer = viewerOf(user);
      const input = { objectid: postId(post), objecttype: 'P' as const, liketype: 0 as const };
      let id = '';
      const add = await timed(async () => (id = (await likes.add(viewer, input, hooks)).likeid));
      const remove = await timed(() => likes.remove(viewer, { likeid: id }));
      return [add, remove];
    };
    /** the peer's counts: count(*) of the object's likes by type */
    const countRows = (trx: Kysely<Database> | Transaction<Database>, post: number) =>
      trx
        .selectFrom('likes')
        .select([
          sql<number>`sum(case when like_type = 0 then 1 else 0 end)`.as('up'),
          sql<number>`sum(case when like_type = 1 then 1 else 0 end)`.as('down'),
        ])
        .where('object_type', '=', 'P')
        .where('object_id', '=', postId(post))
        .executeTakeFirstOrThrow()
        .then((row) => ({ up: Number(row.up ?? 0), down: Number(row.down ?? 0) }));
    const peerLike = async (post: number, user: number) => {
      const id = randomUUID();
      const add = await timed(async () => {
        // the same reads as ours: the object, the user's standing like, the account's age
        await likeQueries.findTarget(db, 'P', postId(post));
        await likeQueries.findOwnLike(db, userId(user), 'P', postId(post));
        await likeQueries.userCreatedAt(db, userId(user));
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('likes')
            .values({
              id,
              user_id: userId(user),
              object_type: 'P',
              object_id: postId(post),
              like_type: 0,
              created_at: Date.now(),
            })
            .onConflict((oc) => oc.columns(['user_id', 'object_type', 'object_id']).doNothing())
            .returning('id')
            .executeTakeFirst();
          return countRows(trx, post);
        });
      });
      const remove = await timed(() =>
        db.transaction().execute(async (trx) => {
          await trx
            .deleteFrom('likes')
            .where('id', '=', id)
            .where('user_id', '=', userId(user))
            .returning(['id', 'object_type', 'object_id', 'like_type'])
            .executeTakeFirst();
          return countRows(trx, post);
        }),
      );
      return [add, remove];
    };
    const likePhase = async (name: string, pickPost: () => number) => {
      const pairs: Array<[number, number]> = [];
      const pair = (round: number) => {
        while (pairs.length <= round) {
          const post = pickPost();
          pairs.push([post, outsider(post)]);
        }
        return pairs[round]!;
      };
      const [ours, peer] = await rounds([
        (round) => oursLike(...pair(round)),
        (round) => peerLike(...pair(round)),
      ]);
      for (const [k, what] of ['add', 'remove'].entries()) {
        const o = ours![k]!;
        lines.push({
          name: `like ${what}, ${name}`,
          ours: o,
          peer: peer![k]!,
          budget: { text: `p99 <= ${BUDGET_LIKE_P99_MS} ms`, pass: o.p99 <= BUDGET_LIKE_P99_MS },
        });
      }
    };
    log('phase 1: likes');
    await likePhase('random posts', () => Math.floor(rng() * LIKED_POSTS));
    await likePhase(`the most liked post (${filled.hotLikes} likes)`, () => filled.hotPost);

    // 2. comments --------------------------------------------------------------------------------
    log('phase 2: comments');
    const viewer = viewerOf(1);
    const commentsPage = async (post: number, beforeid?: string) => {
      const page = await comments.page(viewer, {
        objectid: postId(post),
        objecttype: 'P',
        beforeid,
        pagesize: COMMENT_PAGE,
      });
      if (page.data.length === 0) throw new Error('an empty comments page');
    };
    const withOffset = async (post: number, offset: number) => {
      // the post read for its counter and the page's rows, as ours, by OFFSET
      await db
        .selectFrom('posts')
        .select(['id', 'user_id', 'hidden_at', 'comments_count'])
        .where('id', '=', postId(post))
        .executeTakeFirst();
      const rows = await db
        .selectFrom('comments as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select([
          'c.id',
          'c.object_id',
          'c.object_type',
          'c.user_id',
          'c.text',
          'c.created_at',
          'c.updated_at',
          'u.username',
          'u.fullname',
          'u.avatar_url',
        ])
        .where('c.object_type', '=', 'P')
        .where('c.object_id', '=', postId(post))
        .orderBy('c.id', 'desc')
        .limit(COMMENT_PAGE + 1)
        .offset(offset)
        .execute();
      if (rows.length === 0) throw new Error('an empty comments page');
    };
    const busyPosts: number[] = [];
    for (let p = 1; p < POSTS && busyPosts.length < 500; p += 1 + Math.floor(rng() * (POSTS / 1000)))
      if (filled.commentsOf[p]! > 0) busyPosts.push(p);
    {
      const [ours, peer] = await rounds([
        async (round) => [await timed(() => commentsPage(busyPosts[round % busyPosts.length]!))],
        async (round) => [await timed(() => withOffset(busyPosts[round % busyPosts.length]!, 0))],
      ]);
      lines.push({
        name: `comments page 1, ${busyPosts.length} random posts`,
        ours: ours![0]!,
        peer: peer![0]!,
        budget: {
          text: `p99 <= ${BUDGET_COMMENTS_P99_MS} ms`,
          pass: ours![0]!.p99 <= BUDGET_COMMENTS_P99_MS,
        },
      });
    }
    {
      const [ours, peer] = await rounds([
        async () => [await timed(() => commentsPage(THREAD_POST))],
        async () => [await timed(() => withOffset(THREAD_POST, 0))],
      ]);
      lines.push({
        name: `comments page 1, the ${THREAD}-comment thread`,
        ours: ours![0]!,
        peer: peer![0]!,
        budget: {
          text: `p99 <= ${BUDGET_COMMENTS_P99_MS} ms`,
          pass: ours![0]!.p99 <= BUDGET_COMMENTS_P99_MS,
        },
      });
    }
    {
      const [ours, peer] = await rounds([
        async () => [await timed(() => commentsPage(THREAD_POST, filled.deepBefore))],
        async () => [await timed(() => withOffset(THREAD_POST, filled.deepOffset))],
      ]);
      const o = ours![0]!;
      const p = peer![0]!;
      lines.push({
        name: `comments deep page (${filled.deepOffset} newer) of the thread`,
        ours: o,
        peer: p,
        budget: {
          text: `p99 <= ${BUDGET_COMMENTS_P99_MS} ms and >= ${BUDGET_RATIO}x OFFSET`,
          pass:
            o.p99 <= BUDGET_COMMENTS_P99_MS && p.p50 / o.p50 >= BUDGET_RATIO && p.p99 / o.p99 >= BUDGET_RATIO,
        },
      });
    }

    // 3. reviews ---------------------------------------------------------------------------------
    log('phase 3: reviews');
    const reviewsPage = async (point: number, page: { pagenumber?: number; before?: string }) => {
      const answer = await reviews.page(viewer, {
        appid: pointId(point),
        pagenumber: page.pagenumber ?? 1,
        pagesize: REVIEW_PAGE,
        prefix: 'mdl',
        mustRenderViewScripts: true,
        ...(page.before ? { before: page.before } : {}),
      });
      if (answer.reviews.length === 0) throw new Error('an empty reviews page');
      return answer;
    };
    const reviewed: number[] = [];
    while (reviewed.length < 500) {
      const point = 1 + Math.floor(rng() * (POINTS - 1));
      const row = await db
        .selectFrom('points')
        .select('rating_count')
        .where('id', '=', pointId(point))
        .executeTakeFirst();
      if (Number(row?.rating_count) > 0) reviewed.push(point);
    }
    const deepReviewPage = Math.max(2, Math.floor((HEAVY_REVIEWS * 0.9) / REVIEW_PAGE));
    // the cursor that leads to the deep page: the `next` of the page before it
    const deepBefore = (await reviewsPage(HEAVY_POINT, { pagenumber: deepReviewPage - 1 })).next;
    if (!deepBefore) throw new Error('the heavy point has no page after the one before the deep page');
    {
      const byCursor = await reviewsPage(HEAVY_POINT, { before: deepBefore });
      const byOffset = await reviewsPage(HEAVY_POINT, { pagenumber: deepReviewPage });
      const ids = (page: typeof byCursor) => page.reviews.map((r) => r.reviewid).join();
      if (ids(byCursor) !== ids(byOffset)) throw new Error('the cursor and the offset answer other reviews');
    }
    for (const [name, run] of [
      [
        `reviews page 1, ${reviewed.length} random points`,
        (round: number) => reviewsPage(reviewed[round % reviewed.length]!, {}),
      ],
      [`reviews page 1, the ${HEAVY_REVIEWS}-review point`, () => reviewsPage(HEAVY_POINT, {})],
    ] as const) {
      const [ours] = await rounds([async (round) => [await timed(() => run(round))]]);
      lines.push({
        name,
        ours: ours![0]!,
        budget: {
          text: `p99 <= ${BUDGET_REVIEWS_P99_MS} ms`,
          pass: ours![0]!.p99 <= BUDGET_REVIEWS_P99_MS,
        },
      });
    }
    {
      const [ours, peer] = await rounds([
        async () => [await timed(() => reviewsPage(HEAVY_POINT, { before: deepBefore }))],
        async () => [await timed(() => reviewsPage(HEAVY_POINT, { pagenumber: deepReviewPage }))],
      ]);
      const o = ours![0]!;
      const p = peer![0]!;
      lines.push({
        name: `reviews page ${deepReviewPage} (${(deepReviewPage - 1) * REVIEW_PAGE} newer), cursor`,
        ours: o,
        peer: p,
        budget: {
          text: `p99 <= ${BUDGET_REVIEWS_P99_MS} ms and >= ${BUDGET_RATIO}x OFFSET`,
          pass:
            o.p99 <= BUDGET_REVIEWS_P99_MS && p.p50 / o.p50 >= BUDGET_RATIO && p.p99 / o.p99 >= BUDGET_RATIO,
        },
      });
    }

    // 4. exactness -------------------------------------------------------------------------------
    log(`phase 4: ${CONCURRENT} concurrent likes by as many users, and ${CONCURRENT} identical ones`);
    const like = (user: number, post: number) =>
      likes.add(viewerOf(user), { objectid: postId(post), objecttype: 'P', liketype: 0 }, hooks);
    const manyStarted = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT }, (_, u) => like(u, EXACT_MANY_POST)));
    const manyMs = performance.now() - manyStarted;
    const oneStarted = performance.now();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => like(2, EXACT_ONE_POST)));
    const oneMs = performance.now() - oneStarted;
    const check = async (post: number) => {
      const counted = await likeQueries.countsOf(db, 'P', postId(post));
      const rows = await countRows(db, post);
      return { counted, rows };
    };
    const many = await check(EXACT_MANY_POST);
    const one = await check(EXACT_ONE_POST);
    const distinct = new Set(answers.map((a) => a.likeid)).size;
    exact =
      many.counted.up === CONCURRENT &&
      many.rows.up === CONCURRENT &&
      many.counted.down === 0 &&
      many.rows.down === 0 &&
      one.counted.up === 1 &&
      one.rows.up === 1 &&
      one.counted.down === 0 &&
      distinct === 1;
    // the whole store too: every object's counter against its likes
    const drift = await sql<{ n: number | string }>`select count(*) as n from (
        select object_type, object_id,
          sum(case when like_type = 0 then 1 else 0 end) as up,
          sum(case when like_type = 1 then 1 else 0 end) as down
        from likes group by object_type, object_id) l
      full outer join like_counts c on c.object_type = l.object_type and c.object_id = l.object_id
      where coalesce(l.up, 0) <> coalesce(c.up, 0) or coalesce(l.down, 0) <> coalesce(c.down, 0)`.execute(db);
    const drifted = Number(drift.rows[0]?.n ?? 0);
    if (drifted !== 0) exact = false;

    // the table ----------------------------------------------------------------------------------
    const f = (ms: number) => ms.toFixed(2).padStart(7);
    const ratio = (l: Line) =>
      l.peer
        ? `${(l.peer.p50 / l.ours.p50).toFixed(1).padStart(5)}x ${(l.peer.p99 / l.ours.p99).toFixed(1).padStart(5)}x`
        : ''.padStart(13);
    const out = [
      '',
      `bench:social on ${store.dialect}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
      `data: ${USERS} users, ${POINTS} points, ${POSTS} posts, ${LIKES} likes (most liked post ${filled.hotLikes}), ` +
        `${COMMENTS} comments (thread ${THREAD}), ${REVIEWS} reviews (heavy point ${HEAVY_REVIEWS}); filled in ${filled.seconds.toFixed(1)} s`,
      `each phase: ${WARMUP} warm-up rounds untimed, then up to ${REQUESTS} rounds or ${PHASE_LIMIT_MS / 1000} s; ours and the peer take turns within a round`,
      `p50 and p99: wall clock, ms; CPU p99: this process's CPU time per call (on PostgreSQL the server's share is not in it)`,
      `peers: likes = the same reads and write without like_counts, counts by count(*) over the likes; comments = the same page by ORDER BY id DESC LIMIT ${COMMENT_PAGE + 1} OFFSET n`,
      `peer of the deep reviews page: the same page by the spec's pagenumber (ORDER BY created_at, id DESC LIMIT ${REVIEW_PAGE + 1} OFFSET n)`,
      '',
      `${'phase'.padEnd(52)} ${'n'.padStart(5)}  ours p50     p99 CPU p99 | peer p50     p99 CPU p99 | peer/ours p50   p99 | budget`,
      ...lines.map(
        (l) =>
          `${l.name.padEnd(52)} ${String(l.ours.n).padStart(5)}  ${f(l.ours.p50)} ${f(l.ours.p99)} ${f(l.ours.cpu99)} | ` +
          `${l.peer ? `${f(l.peer.p50)} ${f(l.peer.p99)} ${f(l.peer.cpu99)}` : ''.padStart(23)} | ${ratio(l)} | ` +
          (l.budget ? `${l.budget.text}: ${l.budget.pass ? 'PASS' : 'MISS'}` : 'none'),
      ),
      '',
      `exact: ${exact ? 'yes' : 'no'}: ${CONCURRENT} users at once on one post: like_counts up ${many.counted.up} down ${many.counted.down}, ` +
        `count(*) up ${many.rows.up} down ${many.rows.down} (${manyMs.toFixed(0)} ms); ` +
        `${CONCURRENT} identical adds by one user: like_counts up ${one.counted.up}, count(*) up ${one.rows.up}, ` +
        `${distinct} distinct like id(s) answered (${oneMs.toFixed(0)} ms); objects whose counter differs from their likes: ${drifted}`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await dispose();
  }
  if (!exact) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
