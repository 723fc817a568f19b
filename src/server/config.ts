import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { MEDIA_URL_FORMAT, parseMediaUrl, type S3Location } from './media/url';

/**
 * Configuration, read once from the environment at start. Nothing else reads process.env.
 * An invalid value stops the process with one line naming the variable and what it expects.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z.object({
  PORT: z.coerce
    .number({ error: 'an integer port between 0 and 65535' })
    .int('an integer port between 0 and 65535')
    .min(0, 'an integer port between 0 and 65535')
    .max(65535, 'an integer port between 0 and 65535')
    .default(8080),
  HOST: z.string().min(1, 'a host name or IP address to listen on').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'a directory path').default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'a redis:// or rediss:// URL')
    .optional(),
  MEDIA_URL: z
    .string()
    .refine((value) => parseMediaUrl(value) !== null, MEDIA_URL_FORMAT)
    .optional(),
  BASEMAP: z.string().min(1, 'a path to a .pmtiles file or an http(s):// style URL').optional(),
  SEED: z
    .union([z.literal('none'), z.coerce.number().int().min(0).max(10_000_000)], {
      error: "a number of demo points (0 to 10000000) or 'none'",
    })
    .default(20_000),
  SEED_RANDOM: z.coerce.number({ error: 'an integer seed' }).int('an integer seed').default(1),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SESSION_SECRET: z.string().min(32, 'at least 32 characters of random text').optional(),
  SESSION_TTL_DAYS: z.coerce
    .number({ error: 'a number of days between 1 and 365' })
    .int('a number of days between 1 and 365')
    .min(1, 'a number of days between 1 and 365')
    .max(365, 'a number of days between 1 and 365')
    .default(30),
  PASSWORD_MIN_LENGTH: z.coerce
    .number({ error: 'an integer between 1 and 256' })
    .int('an integer between 1 and 256')
    .min(1, 'an integer between 1 and 256')
    .max(256, 'an integer between 1 and 256')
    .default(8),
  PASSWORD_MIN_NONALNUM: z.coerce
    .number({ error: 'an integer between 0 and 256' })
    .int('an integer between 0 and 256')
    .min(0, 'an integer between 0 and 256')
    .max(256, 'an integer between 0 and 256')
    .default(0),
  TRUST_PROXY: z
    .string()
    .refine(
      isProxySetting,
      "a number of proxy hops (1 to 10), or a comma-separated list of the proxies' addresses or CIDR ranges (loopback, linklocal and uniquelocal name the private ranges)",
    )
    .optional(),
  PUBLIC_URL: z
    .string()
    .refine(
      (value) => publicOrigin(value) !== null,
      'the http:// or https:// address people reach this server at, with no path, query or user (https://xpoint.example)',
    )
    .optional(),
  PASSWORD_PATTERN: z
    .string()
    .refine(isRegExp, 'a valid regular expression (JavaScript syntax, matched against the whole password)')
    .optional(),
  SEARCH_COUNT_LIMIT: z.coerce
    .number({ error: 'a number of candidates between 0 and 100000000' })
    .int('a number of candidates between 0 and 100000000')
    .min(0, 'a number of candidates between 0 and 100000000')
    .max(100_000_000, 'a number of candidates between 0 and 100000000')
    .optional(),
});

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `2` (hops), or `10.0.0.0/8, 127.0.0.1, loopback`: what Fastify's trustProxy accepts, checked here. */
function isProxySetting(value: string): boolean {
  if (/^\d+$/.test(value)) return Number(value) >= 1 && Number(value) <= 10;
  return value.split(',').every((part) => {
    const [address = '', bits, ...rest] = part.trim().split('/');
    if (rest.length > 0) return false;
    if (PROXY_RANGE_NAMES.includes(address) && bits === undefined) return true;
    const family = net.isIP(address);
    if (family === 0) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  });
}

function proxySetting(value: string | undefined): number | string | false {
  if (value === undefined) return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** `https://xpoint.example:8443` from a PUBLIC_URL value; null when it is not an http(s) origin. */
function publicOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  return url.origin;
}

/**
 * Where the server is reached when PUBLIC_URL is not set: the address it listens on, or localhost when
 * it listens on every interface (0.0.0.0, ::), which is no address a browser can open.
 */
function listeningOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : net.isIPv6(host) ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /**
   * MEDIA_URL: the S3-compatible bucket media is stored in (media/url.ts); unset, the local disk
   * under DATA_DIR/media.
   */
  media: S3Location | undefined;
  basemap: string | undefined;
  /** demo points to generate into an empty store; 0 or 'none' seeds nothing. */
  seedPoints: number;
  seedRandom: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** where the web build is served from. */
  webDir: string;
  /** the server's renderer of the full-screen point page (`vite build --ssr`). */
  pageRenderer: string;
  /** HMAC key for session and anti-forgery tokens; unset: generated once into DATA_DIR/session-secret. */
  sessionSecret: string | undefined;
  /** sessions expire this long after their last use (sliding). */
  sessionTtlDays: number;
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): false (the default) believes
   * none, so a client cannot choose the address its per-address limits count; a hop count or the
   * proxies' addresses when XPoint runs behind a load balancer.
   */
  trustProxy: number | string | false;
  /**
   * The origin people reach the server at (`https://xpoint.example`, no trailing slash): every absolute
   * URL the server writes (the canonical link, og:url, the map style's tiles, glyphs and sprite) starts
   * with it. Never taken from Host or X-Forwarded-Host, which any client can set.
   */
  publicUrl: string;
  /** social §5's password rule for new passwords. */
  passwordRule: { minLength: number; minNonAlphanumeric: number; pattern: string | null };
  /**
   * SEARCH_COUNT_LIMIT: candidates the paged search counts one by one before it estimates a very broad
   * query's total (search/segment-search.ts COUNT_EXACT_LIMIT when unset).
   */
  searchCountLimit?: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  // An empty variable counts as unset, as in most tools (PORT= npm start).
  const present = Object.fromEntries(
    Object.keys(schema.shape).flatMap((key) => (env[key] ? [[key, env[key]]] : [])),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'configuration');
    throw new ConfigError(
      `${name} must be ${issue?.message ?? 'valid'} (got ${JSON.stringify(env[name] ?? '')})`,
    );
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(cwd, c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    media: c.MEDIA_URL === undefined ? undefined : parseMediaUrl(c.MEDIA_URL)!,
    basemap: c.BASEMAP,
    seedPoints: c.SEED === 'none' ? 0 : c.SEED,
    seedRandom: c.SEED_RANDOM,
    logLevel: c.LOG_LEVEL,
    webDir: path.resolve(cwd, 'dist/web'),
    pageRenderer: path.resolve(cwd, 'dist/ssr/render.js'),
    sessionSecret: c.SESSION_SECRET,
    sessionTtlDays: c.SESSION_TTL_DAYS,
    trustProxy: proxySetting(c.TRUST_PROXY),
    publicUrl: c.PUBLIC_URL === undefined ? listeningOrigin(c.HOST, c.PORT) : publicOrigin(c.PUBLIC_URL)!,
    passwordRule: {
      minLength: c.PASSWORD_MIN_LENGTH,
      minNonAlphanumeric: c.PASSWORD_MIN_NONALNUM,
      pattern: c.PASSWORD_PATTERN ?? null,
    },
    ...(c.SEARCH_COUNT_LIMIT === undefined ? {} : { searchCountLimit: c.SEARCH_COUNT_LIMIT }),
  };
}
