/**
 * Comments pages benchmark (issue 18): `npm run bench:social-comments -- [--posts 1000000]
 * [--comments 2000000] [--thread 10000] [--requests 2000] [--postgres]`.
 *
 * Fills a temporary store (SQLite under $TMP, removed at the end; with --postgres, a schema of
 * TEST_DATABASE_URL, dropped at the end) with `--posts` posts and `--comments` comments spread over
 * them, one post carrying a thread of `--thread` comments, then times in process, one call at a time:
 * - ours: CommentService.page (features/comments), the call behind
 *   POST /v1/webonly/comment/loadpage_beforeid: the post read for its counter, then 11 rows of the
 *   index (object_type, object_id, id) walked backwards from `beforeid`, joined to their authors;
 * - peer: the same page read with `order by id desc limit 11 offset N`, which walks and throws away
 *   the N newer comments first (what a page-number API does).
 * Pages asked: page 1 of random posts, page 1 of the thread, and a page deep in the thread (the
 * comments just past 90% of it: `beforeid` for ours, offset for the peer). Each phase stops after
 * PHASE_LIMIT_MS. Prints p50/p99 per phase and the deep page's ratio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { CommentService } from '../src/server/features/comments/service';
import { commentTimePrefix } from '../src/server/features/comments/ids';
import { openStore, type Store } from '../src/server/store/store';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}
const POSTS = Number(arg('posts', '1000000'));
const COMMENTS = Number(arg('comments', '2000000'));
const THREAD = Math.min(Number(arg('thread', '10000')), COMMENTS);
const REQUESTS = Number(arg('requests', '2000'));
const POSTGRES = process.argv.includes('--postgres');
const USERS = 10_000;
const PAGE = 10;
const PHASE_LIMIT_MS = 15_000;
const WARMUP = 200;
const BUDGET_P99_MS = 5;
const BUDGET_RATIO = 10;

const log = (message: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** mulberry32: two runs time the same data. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const guid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const userId = (n: number) => `benchuser${n}`;
/** The thread's post. */
const THREAD_POST = guid(0);

async function openBenchStore(): Promise<{ store: Store; dispose: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-bench-comments-'));
  if (!POSTGRES) {
    const store = await openStore({ dataDir });
    return {
      store,
      dispose: async () => {
        await store.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) throw new Error('--postgres needs TEST_DATABASE_URL');
  const schema = `bench_comments_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema},public`);
  const store = await openStore({ databaseUrl: withSchema.toString(), dataDir });
  return {
    store,
    dispose: async () => {
      await store.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Rows in batches through Kysely (both dialects); the posts' change-feed triggers are off while loading. */
async function fill(store: Store): Promise<{ deepBefore: string; deepOffset: number }> {
  const now = Date.now();
  const rng = random(18);
  for (const s of ['ai', 'au', 'ad'])
    await sql
      .raw(
        store.dialect === 'sqlite'
          ? `drop trigger posts_changes_${s}`
          : `drop trigger posts_changes_${s} on posts`,
      )
      .execute(store.db);
  const batches = async <T>(
    total: number,
    size: number,
    make: (i: number) => T,
    write: (rows: T[]) => Promise<unknown>,
  ) => {
    for (let start = 0; start < total; start += size) {
      const rows: T[] = [];
      for (let i = start; i < Math.min(total, start + size); i++) rows.push(make(i));
      await write(rows);
    }
  };
  // SQLite: one transaction per table, not one per batch
  const inTransactions = async (work: () => Promise<void>) => {
    if (store.raw.kind === 'sqlite') store.raw.database.exec('begin');
    await work();
    if (store.raw.kind === 'sqlite') store.raw.database.exec('commit');
  };
  log(`loading ${USERS} users, ${POSTS} posts, ${COMMENTS} comments (a thread of ${THREAD})`);
  const started = performance.now();
  await inTransactions(() =>
    batches(
      USERS,
      1000,
      (i) => ({
        id: userId(i),
        username: `bench${i}`,
        username_lower: `bench${i}`,
        email: `bench${i}@example.com`,
        email_lower: `bench${i}@example.com`,
        fullname: `Bench ${i}`,
        avatar_url: null,
        status: 'active',
        is_admin: 0,
        password_hash: null,
        created_at: now,
        updated_at: now,
      }),
      (rows) => store.db.insertInto('users').values(rows).execute(),
    ),
  );
  const perPost = new Map<number, number>();
  const postOf = (i: number) => (i < THREAD ? 0 : 1 + Math.floor(rng() * (POSTS - 1)));
  const comments: { post: number; at: number }[] = [];
  // the thread's comments one a minute up to now; the rest spread over 90 days
  for (let i = 0; i < COMMENTS; i++) {
    const post = postOf(i);
    perPost.set(post, (perPost.get(post) ?? 0) + 1);
    comments.push({
      post,
      at: i < THREAD ? now - (THREAD - i) * 60_000 : now - Math.floor(rng() * 90 * 86_400_000),
    });
  }
  // written in time order, as they would have been: the primary key grows at its end
  comments.sort((x, y) => x.at - y.at);
  await inTransactions(() =>
    batches(
      POSTS,
      500,
      (i) => ({
        id: guid(i),
        user_id: userId(i % USERS),
        title: `Post ${i}`,
        description: 'A benchmark post.',
        type: 'deal',
        city_id: null,
        xpoint_id: null,
        parent_type: null,
        image_url: null,
        image_placeholder: 'deal',
        image_variants: null,
        video_url: null,
        video_id: null,
        file_resource_bitmask: 0,
        expires_at: null,
        created_at: now,
        updated_at: now,
        listed_at: now,
        renewed_at: null,
        hidden_at: null,
        lat: null,
        lon: null,
        comments_count: perPost.get(i) ?? 0,
      }),
      (rows) => store.db.insertInto('posts').values(rows).execute(),
    ),
  );
  log(`posts loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // the object index is built once after the load (a sorted build), not row by row in random order
  await sql`drop index comments_object_id`.execute(store.db);
  const ids: string[] = [];
  await inTransactions(() =>
    batches(
      COMMENTS,
      1000,
      (i) => {
        const { post, at } = comments[i]!;
        // the time-ordered id the service writes, with the row number as its unique tail
        const id = commentTimePrefix(at) + i.toString(36).padStart(7, '0');
        if (post === 0) ids.push(id);
        return {
          id,
          object_id: guid(post),
          object_type: 'P',
          user_id: userId(Math.floor(rng() * USERS)),
          text: `Comment ${i}: looks good to me.`,
          created_at: at,
          updated_at: at,
        };
      },
      (rows) => store.db.insertInto('comments').values(rows).execute(),
    ),
  );
  await store.db.schema
    .createIndex('comments_object_id')
    .on('comments')
    .columns(['object_type', 'object_id', 'id'])
    .execute();
  log(`comments loaded and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (store.dialect === 'sqlite') await sql`analyze`.execute(store.db);
  else await sql`vacuum analyze`.execute(store.db);
  // the page just past 90% of the thread, newest first: its beforeid is the comment above it
  ids.sort();
  const deepOffset = Math.floor(THREAD * 0.9);
  return { deepBefore: ids[ids.length - deepOffset] ?? '', deepOffset };
}

/** Times `run` REQUESTS times (or until PHASE_LIMIT_MS); p50 and p99 in ms. */
async function time(
  name: string,
  run: (i: number) => Promise<number>,
): Promise<{ p50: number; p99: number }> {
  // warm-up: the JIT, the statement caches and the pages of the index the phase reads
  for (let i = 0; i < WARMUP; i++) await run(i);
  const took: number[] = [];
  const until = performance.now() + PHASE_LIMIT_MS;
  for (let i = 0; i < REQUESTS && performance.now() < until; i++) {
    const start = performance.now();
    const rows = await run(i);
    took.push(performance.now() - start);
    if (rows === 0) throw new Error(`${name}: an empty page`);
  }
  took.sort((a, b) => a - b);
  const p50 = pct(took, 50);
  const p99 = pct(took, 99);
  log(
    `${name.padEnd(44)} n=${String(took.length).padStart(5)}  p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms`,
  );
  return { p50, p99 };
}

async function main(): Promise<void> {
  const { store, dispose } = await openBenchStore();
  try {
    const { deepBefore, deepOffset } = await fill(store);
    const service = new CommentService(store, undefined);
    const rng = random(7);
    const ours = (objectid: string, beforeid?: string) =>
      service
        .page(null, { objectid, objecttype: 'P', beforeid, pagesize: PAGE })
        .then((page) => page.data.length);
    const withOffset = (objectid: string, offset: number) =>
      store.db
        .selectFrom('comments as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select([
          'c.id',
          'c.text',
          'c.created_at',
          'c.updated_at',
          'u.username',
          'u.fullname',
          'u.avatar_url',
        ])
        .where('c.object_type', '=', 'P')
        .where('c.object_id', '=', objectid)
        .orderBy('c.id', 'desc')
        .limit(PAGE + 1)
        .offset(offset)
        .execute()
        .then((rows) => rows.length);
    // random posts with at least one comment: the posts past the thread carry most
    const somePost = () => guid(1 + Math.floor(rng() * (POSTS - 1)));
    const busyPosts: string[] = [];
    while (busyPosts.length < 500) {
      const id = somePost();
      const row = await store.db
        .selectFrom('posts')
        .select('comments_count')
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(row?.comments_count) > 0) busyPosts.push(id);
    }
    log(`store: ${store.dialect}; deep page: beforeid ${deepBefore} = offset ${deepOffset} of ${THREAD}`);
    const first = await time('keyset: page 1 of random posts', (i) => ours(busyPosts[i % busyPosts.length]!));
    const firstThread = await time('keyset: page 1 of the thread', () => ours(THREAD_POST));
    const deep = await time(`keyset: deep page of the thread`, () => ours(THREAD_POST, deepBefore));
    await time('offset: page 1 of the thread', () => withOffset(THREAD_POST, 0));
    const offsetDeep = await time(`offset: deep page (offset ${deepOffset})`, () =>
      withOffset(THREAD_POST, deepOffset),
    );
    const ratio = offsetDeep.p50 / deep.p50;
    log(
      `deep page: keyset ${ratio.toFixed(1)}x faster than OFFSET at the median (p99 ${(offsetDeep.p99 / deep.p99).toFixed(1)}x)`,
    );
    const worst = Math.max(first.p99, firstThread.p99, deep.p99);
    log(
      `budget: comments page p99 <= ${BUDGET_P99_MS} ms at any depth: ${worst <= BUDGET_P99_MS ? 'met' : 'MISSED'} (${worst.toFixed(3)} ms); ` +
        `>= ${BUDGET_RATIO}x faster than OFFSET deep in the thread: ${ratio >= BUDGET_RATIO ? 'met' : 'MISSED'}`,
    );
  } finally {
    await dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
