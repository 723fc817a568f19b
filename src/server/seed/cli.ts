/**
 * `npm run seed -- --points N --seed S [--force]`: fills the store with demo data.
 * Reads DATA_DIR and DATABASE_URL like the server (loadConfig); without --points and --seed it uses
 * SEED and SEED_RANDOM. Refuses a store that already has points unless --force, which replaces the
 * users, points and everything hanging off them (cities stay) in the same transaction as the new data.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { loadCities } from '../features/cities/load';
import { openStore, type Store } from '../store/store';
import { openMedia } from '../media/open';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData, type SeedSummary } from './generate';

const USAGE = 'usage: npm run seed -- [--points N] [--seed S] [--force]';

interface CliArgs {
  points: number | undefined;
  seed: number | undefined;
  force: boolean;
  help: boolean;
}

function parseCliArgs(argv: string[]): CliArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      points: { type: 'string', short: 'n' },
      seed: { type: 'string', short: 's' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const integer = (name: string, value: string | undefined, max: number): number | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value.replace(/_/g, ''));
    if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(n) || n > max) {
      throw new Error(`--${name} must be an integer from 0 to ${max} (got ${JSON.stringify(value)})`);
    }
    return n;
  };
  return {
    points: integer('points', values.points, 10_000_000),
    seed: integer('seed', values.seed, 0xffffffff),
    force: values.force ?? false,
    help: values.help ?? false,
  };
}

function formatSummary(summary: SeedSummary): string[] {
  const per = Object.entries(summary.bySupertype)
    .map(([supertype, n]) => `${supertype} ${n}`)
    .join(', ');
  return [
    `points          ${summary.points} (${per})`,
    `users           ${summary.users}`,
    `events          ${summary.events} (${summary.eventIntervals} intervals, ${summary.eventTickets} ticket options)`,
    `posts           ${summary.posts} (${summary.comments} comments, ${summary.likes} likes)`,
    `reviews         ${summary.reviews} (${summary.reviewReplies} answered by the owner)`,
    `follows         ${summary.follows}`,
    `notifications   ${summary.notifications} (for the demo accounts)`,
    `contacts        ${summary.contacts}`,
    `screenshots     ${summary.screenshots}`,
    `media assets    ${summary.mediaAssets}`,
  ];
}

async function main(): Promise<number> {
  const started = performance.now();
  let args: CliArgs;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `xpoint seed: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`,
    );
    return 1;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`xpoint seed: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const points = args.points ?? config.seedPoints;
  const seed = args.seed ?? config.seedRandom;
  const log = (message: string) => process.stdout.write(`${message}\n`);

  let store: Store;
  try {
    store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    process.stderr.write(`xpoint seed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  // the generated pictures go where the server reads media from: DATA_DIR/media, or MEDIA_URL's bucket
  const media = await openMedia(config);
  try {
    await media.store.check();
    await loadCities(store, log);
    const existing = await store.db.selectFrom('points').select('id').limit(1).executeTakeFirst();
    if (existing && !args.force) {
      process.stderr.write(
        `xpoint seed: ${store.location} already has points; run with --force to replace its users, points and posts\n`,
      );
      return 1;
    }
    log(`xpoint seed: ${points} points, seed ${seed}, into ${store.location}`);
    const summary = await seedDemoData(store, {
      points,
      seed,
      now: Date.now(),
      dataDir: config.dataDir,
      media: media.store,
      log,
      wipe: args.force,
    });
    for (const line of formatSummary(summary)) log(line);
    log(`demo accounts (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.username).join(', ')}`);
    log(
      `seeded in ${(summary.elapsedMs / 1000).toFixed(1)} s (${((performance.now() - started) / 1000).toFixed(1)} s in all)`,
    );
    return 0;
  } finally {
    media.store.close();
    await store.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `xpoint seed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
