import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatActivityItem, GlobalBeamItem } from '../../shared/api/live';
import type { SocialLiveMessage } from '../../shared/api/social-live';

/**
 * What travels between server processes: every beam and chat line, so that a device on any process
 * behind the load balancer sees activity posted to any other. Messages are plain JSON.
 */
export type BusMessage =
  | { type: 'xpoint_beam'; beam: GlobalBeamItem }
  | { type: 'event_beam'; beam: GlobalBeamItem }
  | { type: 'map_activity'; item: ChatActivityItem }
  /** a conversation's event (`msg`, `read`) to its room `chat:{pointid}:{visitorid}` (issue 22). */
  | { type: 'chat'; topic: string; event?: string; payload: Record<string, unknown> }
  /** a social push (`social:{type}:{id}` or `user:{id}`): the `social` event with {kind, data}. */
  | { type: 'social'; topic: string; payload: SocialLiveMessage };

export type BusHandler = (message: BusMessage) => void;

export interface Bus {
  /** Delivers to this process's subscribers at once, and to every other process's when it can. */
  publish(message: BusMessage): void;
  subscribe(handler: BusHandler): void;
  close(): Promise<void>;
}

/** One process: publishing is calling the subscribers. */
export class LocalBus implements Bus {
  private readonly handlers: BusHandler[] = [];
  publish(message: BusMessage): void {
    for (const handler of this.handlers) handler(message);
  }
  subscribe(handler: BusHandler): void {
    this.handlers.push(handler);
  }
  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}

export interface RedisBusOptions {
  url: string;
  /** channel names start with this; tests use a unique one so parallel runs never mix. */
  prefix?: string;
  log: FastifyBaseLogger;
  /** reconnect delay cap; ioredis retries for ever. */
  maxRetryDelayMs?: number;
}

interface Envelope {
  /** the publishing process: it has delivered its own message already and skips the echo. */
  o: string;
  m: BusMessage;
}

/**
 * Redis pub/sub between processes. Local delivery never waits for Redis: a process with Redis gone
 * keeps serving its own devices, says so once in its log, and says so again when Redis is back.
 * Messages published while Redis is down are not queued (a beam is only worth seeing now).
 */
export class RedisBus implements Bus {
  private readonly local = new LocalBus();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly log: FastifyBaseLogger;
  private down = false;
  private closed = false;
  /** whether the first 'ready' has been logged: operators see which bus a process runs on. */
  private announced = false;

  constructor(options: RedisBusOptions) {
    this.log = options.log;
    this.channel = `${options.prefix ?? 'xpoint:'}live`;
    const maxDelay = options.maxRetryDelayMs ?? 2000;
    const redisOptions = {
      // fail fast instead of queueing: a beam published into a dead connection is dropped
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(100 * times, maxDelay),
      lazyConnect: false,
    };
    this.pub = new Redis(options.url, redisOptions);
    // the subscriber must re-subscribe after a reconnect, which needs its offline queue
    this.sub = new Redis(options.url, {
      ...redisOptions,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
    });
    for (const client of [this.pub, this.sub]) {
      client.on('error', (error: Error) => this.markDown(error));
      client.on('ready', () => this.markUp());
    }
    this.sub.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch {
        return;
      }
      if (envelope.o === this.origin || !envelope.m) return;
      this.local.publish(envelope.m);
    });
    this.sub.subscribe(this.channel).catch((error: unknown) => this.markDown(error));
  }

  /** True while both connections are ready. */
  get connected(): boolean {
    return this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  private markDown(error: unknown): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.log.warn(
      { err: error instanceof Error ? error.message : String(error), channel: this.channel },
      'Redis is unreachable: live activity reaches only the devices of this process until it is back',
    );
  }

  private markUp(): void {
    if (!this.connected) return;
    if (!this.announced) {
      this.announced = true;
      this.log.info({ channel: this.channel }, 'live activity goes through Redis to every process');
    }
    if (!this.down) return;
    this.down = false;
    this.log.info({ channel: this.channel }, 'Redis is back: live activity reaches every process again');
  }

  publish(message: BusMessage): void {
    this.local.publish(message);
    if (this.pub.status !== 'ready') return;
    const envelope: Envelope = { o: this.origin, m: message };
    this.pub.publish(this.channel, JSON.stringify(envelope)).catch((error: unknown) => this.markDown(error));
  }

  subscribe(handler: BusHandler): void {
    this.local.subscribe(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

export function openBus(options: {
  redisUrl: string | undefined;
  prefix?: string;
  log: FastifyBaseLogger;
}): Bus {
  if (!options.redisUrl) return new LocalBus();
  return new RedisBus({
    url: options.redisUrl,
    log: options.log,
    ...(options.prefix ? { prefix: options.prefix } : {}),
  });
}
