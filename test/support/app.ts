import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { Dialect } from '../../src/server/store/dialect';
import type { FirstPaintRenderers, FullScreenRenderer } from '../../src/shared/details/page';
import { openTestStore, type TestStore } from './store';

export interface TestApp {
  app: FastifyInstance;
  store: TestStore;
  config: Config;
  close(): Promise<void>;
}

/** The stand-in of the build's fullscreen.html: its markers, as Vite leaves them. */
export const FULLSCREEN_TEMPLATE =
  '<!doctype html><html lang="en"><head><!--xp-head--><script type="module" src="/assets/fullscreen-1.js"></script></head>' +
  '<body class="fullscreen page-document"><div id="root" data-ssr="fullscreen"><!--xp-root--></div><!--xp-data--></body></html>';

/**
 * The real application on a fresh temporary store, with a tiny stand-in web build so page routes can be
 * checked without running Vite. `prepare` may register extra routes before the app is sealed. Pages
 * are not rendered on the server unless a `pageRenderer` is given (the built one may be absent or stale).
 */
export async function openTestApp(
  options: {
    dialect?: Dialect;
    prepare?: (app: FastifyInstance) => void | Promise<void>;
    pageRenderer?: FullScreenRenderer;
    /** the app's first paints (issue 23); none unless given. */
    firstPaint?: FirstPaintRenderers;
    onRoute?: AppDeps['onRoute'];
    /** how often the app reads the store's change feed (buildApp's default: 500 ms). */
    changeFeedPollMs?: number;
    /** on PostgreSQL, whether commits wake the app's follower (buildApp's default: true). */
    changeFeedListen?: boolean;
    /**
     * A store to run on instead of a fresh one (a second app on the same database, as a second process
     * would be); it stays open when the app closes.
     */
    store?: TestStore;
    /** TRUST_PROXY; by default the tests stand behind a trusted local proxy ('loopback'). */
    trustProxy?: string;
    /** PUBLIC_URL; by default the listening address's (http://127.0.0.1:8080). */
    publicUrl?: string;
    /** MEDIA_URL (an s3:// bucket); by default media is on the disk under the app's DATA_DIR. */
    mediaUrl?: string;
    /** REDIS_URL; by default none (limits in memory, the live bus local). */
    redisUrl?: string;
    /** the Redis key prefix of the per-address limits; give a unique one per test run. */
    limitsPrefix?: string;
    /** BASEMAP; by default none (the embedded archive). */
    basemap?: string;
    /** a pino logger to read what the app logs; by default a silent one. */
    logger?: AppDeps['logger'];
  } = {},
): Promise<TestApp> {
  const store = options.store ?? (await openTestStore(options.dialect ?? 'sqlite'));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-app-'));
  const webDir = path.join(root, 'web');
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>XPoint test</title><div id="root"></div>',
  );
  fs.writeFileSync(path.join(webDir, 'fullscreen.html'), FULLSCREEN_TEMPLATE);
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
  fs.writeFileSync(path.join(webDir, 'assets', 'app-3f9a1c.js'), script);
  // the build writes a precompressed sibling beside each hashed asset (vite.config.ts)
  fs.writeFileSync(path.join(webDir, 'assets', 'app-3f9a1c.js.br'), brotliCompressSync(script));
  // inject() comes from 127.0.0.1: the tests stand behind a trusted local proxy, so a test gives each
  // client its own address with X-Forwarded-For (the default, trusting no proxy, is tested in app.test.ts)
  const config: Config = {
    ...loadConfig(
      {
        SEED: 'none',
        LOG_LEVEL: 'silent',
        TRUST_PROXY: options.trustProxy ?? 'loopback',
        ...(options.publicUrl ? { PUBLIC_URL: options.publicUrl } : {}),
        ...(options.mediaUrl ? { MEDIA_URL: options.mediaUrl } : {}),
        ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
        ...(options.basemap ? { BASEMAP: options.basemap } : {}),
      },
      root,
    ),
    webDir,
  };
  const app = await buildApp({
    config,
    store,
    pageRenderer: options.pageRenderer ?? null,
    firstPaint: options.firstPaint ?? null,
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.changeFeedPollMs !== undefined ? { changeFeedPollMs: options.changeFeedPollMs } : {}),
    ...(options.changeFeedListen !== undefined ? { changeFeedListen: options.changeFeedListen } : {}),
    ...(options.limitsPrefix !== undefined ? { limitsPrefix: options.limitsPrefix } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  await options.prepare?.(app);
  await app.ready();
  return {
    app,
    store,
    config,
    async close() {
      await app.close();
      if (!options.store) await store.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
