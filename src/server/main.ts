import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config';
import { openStore, type Store } from './store/store';
import { buildApp } from './app';
import { loadCities } from './features/cities/load';
import { seedDemoData } from './seed/generate';
import { openMedia } from './media/open';
import type { MediaPlace } from './media/store';

/**
 * config -> media store (checked) -> store (migrate) -> cities -> demo data -> app -> listen; graceful
 * shutdown on SIGTERM/SIGINT. A bad configuration, an unreachable media bucket or an unreachable database
 * stops the process with status 1 and one line.
 */
async function main(): Promise<void> {
  // React's server renderer (the full-screen page, loaded later) picks its build from NODE_ENV: the
  // production one unless told otherwise (`npm run dev` says development)
  process.env['NODE_ENV'] ??= 'production';
  const config = loadConfigOrExit();
  const log = pino({ level: config.logLevel });

  let store: Store | undefined = undefined;
  let media: MediaPlace | undefined = undefined;
  let app: FastifyInstance | undefined = undefined;
  let stopping = false;

  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    // A second signal, or in-flight work that never ends, must not keep the process alive forever.
    const force = setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app?.close();
      await store?.close();
      media?.store.close();
      log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));

  // the bucket MEDIA_URL names must answer before anything is written (bounded: s3.ts CHECK_TIMEOUT_MS)
  media = await openMedia(config);
  try {
    await media.store.check();
  } catch (error) {
    exitWithLine(
      config.media
        ? `MEDIA_URL: ${(error as Error).message}`
        : `cannot use the media directory: ${oneLine(error)}`,
    );
  }
  log.info({ media: media.store.location }, 'media store ready');
  if (media.notice) log.warn(media.notice);

  try {
    store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    exitWithLine(`cannot open the store: ${oneLine(error)}`);
  }
  log.info({ store: store.location, dialect: store.dialect }, 'store ready, migrations applied');

  const cities = await loadCities(store, (message) => log.info(message));
  if (cities > 0) log.info({ cities }, 'loaded cities');
  if (stopping) return;

  await seedIfEmpty(config, store, media, log);
  if (stopping) return;

  app = await buildApp({ config, store, logger: log, media });
  await app.listen({ port: config.port, host: config.host });
}

async function seedIfEmpty(config: Config, store: Store, media: MediaPlace, log: pino.Logger): Promise<void> {
  if (config.seedPoints <= 0) return;
  const existing = await store.db.selectFrom('points').select('id').limit(1).executeTakeFirst();
  if (existing) {
    log.info('the store already holds points; not seeding');
    return;
  }
  log.info({ points: config.seedPoints, seed: config.seedRandom }, 'seeding demo data into an empty store');
  const summary = await seedDemoData(store, {
    points: config.seedPoints,
    seed: config.seedRandom,
    now: Date.now(),
    dataDir: config.dataDir,
    media: media.store,
    log: (message: string) => log.info(message),
  });
  log.info({ summary }, 'demo data ready');
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) exitWithLine(`configuration error: ${error.message}`);
    throw error;
  }
}

/** The whole message on one line: pg's AggregateError has an empty message and the reasons inside. */
function oneLine(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(oneLine).join('; ');
  }
  if (error instanceof Error) {
    const text = error.message || (error as NodeJS.ErrnoException).code || error.name;
    const cause = error.cause ? `: ${oneLine(error.cause)}` : '';
    return `${text}${cause}`.replace(/\s+/g, ' ').trim();
  }
  return String(error).replace(/\s+/g, ' ');
}

function exitWithLine(message: string): never {
  process.stderr.write(`xpoint: ${message}\n`);
  process.exit(1);
}

main().catch((error: unknown) => {
  exitWithLine(`failed to start: ${oneLine(error)}`);
});
