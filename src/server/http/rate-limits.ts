import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { AppError } from '../../shared/errors';

/**
 * Per-address limits (sign-in, sign-up, creates, callbacks, promo counts), built in one place for every
 * feature that registers @fastify/rate-limit.
 *
 * With REDIS_URL set, every limit counts in Redis (one client per process, each limit under its own
 * key, `xpoint:rl:POST/v1/account/login:<address>`), so N processes behind a load balancer share one
 * count. Without it, each process counts in memory.
 *
 * While Redis is unreachable, requests are still served and each limit counts in this process's memory
 * (per process, as without Redis): the log says so once when Redis goes (warn) and once when it is back
 * (info). A request is never refused or failed because Redis is down.
 */

/** How @fastify/rate-limit's own stores are called (store/*.js: no types are published for them). */
interface CountResult {
  current: number;
  ttl: number;
}
type CountCallback = (error: Error | null, result: CountResult | null) => void;
interface CountStore {
  incr(key: string, done: CountCallback, timeWindow: number, max: number): void;
  read(key: string, done: CountCallback, timeWindow: number, max: number): void;
}
type LocalStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => CountStore;
type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => CountStore;

const pluginRequire = createRequire(import.meta.url);
const LocalStore = pluginRequire('@fastify/rate-limit/store/LocalStore') as LocalStoreClass;
const RedisStore = pluginRequire('@fastify/rate-limit/store/RedisStore') as RedisStoreClass;

/** Addresses each limit remembers in memory (the plugin's default): the least recently seen go first. */
const LOCAL_ADDRESSES = 5000;
/** Redis keys start with this unless told otherwise; tests use a unique one per run. */
export const DEFAULT_LIMITS_PREFIX = 'xpoint:rl:';
/** A Redis that answers nothing (not closed, just stuck) is given up on for a request after this. */
const COMMAND_TIMEOUT_MS = 500;

/** What a route's limit hook sees of it: the plugin's merged options with the route's method and url. */
interface RouteLimit {
  routeInfo?: { method?: string | string[]; url?: string };
}

export interface Limits {
  /** The options of one feature's `app.register(rateLimit, …)`: its hook and key, if not the defaults. */
  plugin(options?: Pick<RateLimitPluginOptions, 'hook' | 'keyGenerator'>): RateLimitPluginOptions;
  /**
   * A limit outside HTTP (a chat line over the socket): `max` per `windowMs` for each key, counted
   * like the routes' (in Redis when set). The check answers whether this one may pass, and the wait.
   */
  counter(
    name: string,
    max: number,
    windowMs: number,
  ): (key: string) => Promise<{ ok: boolean; retryMs: number }>;
  /** True while limits are counted in Redis. */
  readonly shared: boolean;
  close(): Promise<void>;
}

/** The 429 in the catalogue's shape, with how long to wait. */
function refused(_request: FastifyRequest, context: { ttl: number }): AppError {
  return new AppError('rateLimited', { retry: `${Math.max(1, Math.ceil(context.ttl / 1000))} s` });
}

class LocalLimits implements Limits {
  readonly shared = false;
  plugin(options: Pick<RateLimitPluginOptions, 'hook' | 'keyGenerator'> = {}): RateLimitPluginOptions {
    return { ...options, global: false, errorResponseBuilder: refused };
  }
  counter(_name: string, max: number, windowMs: number) {
    return counting(new LocalStore(false, false, LOCAL_ADDRESSES), max, windowMs);
  }
  async close(): Promise<void> {}
}

class RedisLimits implements Limits {
  private readonly client: Redis;
  private readonly prefix: string;
  private readonly log: FastifyBaseLogger;
  private down = false;
  private announced = false;
  private closed = false;

  constructor(options: { url: string; prefix: string; log: FastifyBaseLogger }) {
    this.prefix = options.prefix;
    this.log = options.log;
    this.client = new Redis(options.url, {
      // a count that cannot be made now is made in memory: never queue it or retry it
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (times: number) => Math.min(100 * times, 2000),
    });
    this.client.on('error', (error: Error) => this.markDown(error));
    this.client.on('close', () => this.markDown(new Error('the connection closed')));
    this.client.on('ready', () => this.markUp());
  }

  get shared(): boolean {
    return this.client.status === 'ready';
  }

  private markDown(error: unknown): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.log.warn(
      { err: error instanceof Error ? error.message : String(error), prefix: this.prefix },
      'Redis is unreachable: limits are counted per process until it is back',
    );
  }

  private markUp(): void {
    if (this.closed) return;
    if (!this.announced) {
      this.announced = true;
      if (!this.down)
        this.log.info({ prefix: this.prefix }, 'limits are counted in Redis, shared by every process');
    }
    if (!this.down) return;
    this.down = false;
    this.log.info({ prefix: this.prefix }, 'Redis is back: limits are shared by every process again');
  }

  plugin(options: Pick<RateLimitPluginOptions, 'hook' | 'keyGenerator'> = {}): RateLimitPluginOptions {
    // the plugin makes one store, then a child for each limited route (`new Store(params).child(route)`)
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const limits = this;
    class SharedStore {
      child(route: RouteLimit): CountStore {
        const { method = '', url = '' } = route.routeInfo ?? {};
        return limits.store(`${[method].flat().join(',')}${url}:`);
      }
    }
    return {
      ...options,
      global: false,
      // a count that fails is let through rather than answered 500 (the store falls back before that)
      skipOnError: true,
      store: SharedStore as unknown as RateLimitPluginOptions['store'],
      errorResponseBuilder: refused,
    };
  }

  counter(name: string, max: number, windowMs: number) {
    return counting(this.store(`${name}:`), max, windowMs);
  }

  /** One limit's counts: in Redis under `prefix + name`, in this process's memory while Redis is away. */
  private store(name: string): CountStore {
    const redis = new RedisStore(false, false, this.client, `${this.prefix}${name}`);
    const local = new LocalStore(false, false, LOCAL_ADDRESSES);
    const count =
      (method: 'incr' | 'read') =>
      (key: string, done: CountCallback, timeWindow: number, max: number): void => {
        if (!this.shared) return local[method](key, done, timeWindow, max);
        redis[method](
          key,
          (error, result) => {
            if (!error) {
              // a count that failed while the connection stayed up (a timeout) ends its outage here
              if (this.down) this.markUp();
              return done(null, result);
            }
            this.markDown(error);
            local[method](key, done, timeWindow, max);
          },
          timeWindow,
          max,
        );
      };
    return { incr: count('incr'), read: count('read') };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client.disconnect();
  }
}

/** A counter over a store: counts the key once and answers whether it is within `max`. */
function counting(store: CountStore, max: number, windowMs: number) {
  return (key: string) =>
    new Promise<{ ok: boolean; retryMs: number }>((resolve) =>
      store.incr(
        key,
        (error, result) => {
          // a count that cannot be made lets the line through, as the routes' limits do
          if (error || !result) return resolve({ ok: true, retryMs: 0 });
          resolve({ ok: result.current <= max, retryMs: result.ttl });
        },
        windowMs,
        max,
      ),
    );
}

/** The limits of one process: shared through Redis when REDIS_URL is set, in memory otherwise. */
export function openLimits(options: {
  redisUrl: string | undefined;
  prefix?: string;
  log: FastifyBaseLogger;
}): Limits {
  if (!options.redisUrl) return new LocalLimits();
  return new RedisLimits({
    url: options.redisUrl,
    prefix: options.prefix ?? DEFAULT_LIMITS_PREFIX,
    log: options.log,
  });
}
