import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { SOCKET_PATH } from '../../shared/api/live';
import { AppError } from '../../shared/errors';
import { SESSION_COOKIE } from '../auth/hook';
import { errorResponses } from '../openapi/errors';
import type { Connection, Transport } from './connection';
import type { Hub } from './hub';
import { MAX_FRAME_BYTES } from './protocol';
import { connectParams } from './websocket';

export const LONGPOLL_PATH = `${SOCKET_PATH}/longpoll`;
/** Messages kept for a session between polls; a client that stops polling loses the oldest. */
const MAX_QUEUED = 1000;
/** The official client sends at most 100 messages per POST. */
const MAX_POST_BYTES = 100 * MAX_FRAME_BYTES;

export interface LongPollOptions {
  /** how long a GET is held open waiting for messages (the client gives up after 20 s). */
  windowMs: number;
  /** how long a session lives without a poll (the hub's sweep ends it): when a refused client may retry. */
  sessionMs: number;
  /** open sessions one client address may hold (a browser holds one per tab). */
  maxPerAddress: number;
  /** open sessions in all, so no crowd of addresses can hold the process's memory either. */
  maxSessions: number;
}

/** A tab holds one session; 20 covers a household or an office behind one address. */
export const LONGPOLL_MAX_PER_ADDRESS = 20;
/** Each session keeps up to MAX_QUEUED messages: 10,000 sessions stay well within the process. */
export const LONGPOLL_MAX_SESSIONS = 10_000;

/**
 * A long-poll session, as Phoenix's LongPoll transport speaks it: every answer is HTTP 200 with a
 * JSON body whose `status` is what counts to the client (410 = new session with its `token`,
 * 200 = messages, 204 = nothing new, 403 = connect refused; a POST answers {status: 200}).
 */
class LongPollSession implements Transport {
  readonly kind = 'longpoll' as const;
  connection!: Connection;
  private queue: string[] = [];
  private waiter: { reply: FastifyReply; timer: NodeJS.Timeout } | null = null;
  private flushScheduled = false;
  closed = false;

  constructor(
    readonly token: string,
    /** the client address that opened it, counted against LongPollOptions.maxPerAddress. */
    readonly address: string,
    private readonly onClose: (session: LongPollSession) => void,
  ) {}

  send(frame: string | Buffer): void {
    if (this.closed) return;
    this.queue.push(typeof frame === 'string' ? frame : frame.toString('utf8'));
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
    this.scheduleFlush();
  }

  sendShared(prefix: Buffer, suffix: Buffer): void {
    this.send(prefix.toString('utf8') + suffix.toString('utf8'));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.answer({ status: 410 });
    this.onClose(this);
  }

  /** Holds the GET until there are messages or the window ends. */
  poll(reply: FastifyReply, windowMs: number): void {
    // a second poll replaces the first, which ends with nothing
    this.answer({ status: 204, token: this.token });
    if (this.queue.length > 0) {
      this.respondMessages(reply);
      return;
    }
    const timer = setTimeout(() => this.answer({ status: 204, token: this.token }), windowMs);
    this.waiter = { reply, timer };
  }

  /** Messages that arrive together leave in one answer. */
  private scheduleFlush(): void {
    if (this.flushScheduled || !this.waiter) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const waiter = this.waiter;
      if (!waiter || this.queue.length === 0) return;
      this.waiter = null;
      clearTimeout(waiter.timer);
      this.respondMessages(waiter.reply);
    });
  }

  private respondMessages(reply: FastifyReply): void {
    const messages = this.queue;
    this.queue = [];
    void send(reply, { status: 200, token: this.token, messages });
  }

  private answer(body: Record<string, unknown>): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    clearTimeout(waiter.timer);
    void send(waiter.reply, body);
  }
}

function send(reply: FastifyReply, body: Record<string, unknown>): FastifyReply {
  if (reply.sent) return reply;
  return reply
    .status(200)
    .header('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * The transport's calls for the document. Phoenix's client sends its own parameters (vsn, the
 * socket's params): the handlers read them from the URL as the WebSocket does, so the schemas only
 * document the ones that matter here, and the protocol's status travels in the body of a 200.
 */
const protocolAnswer = (description: string) =>
  z
    .object({ status: z.number(), token: z.string().optional(), messages: z.array(z.unknown()).optional() })
    .meta({
      description,
    });
const LONGPOLL_GET = {
  summary: 'Long-poll transport of the realtime channel: wait for messages',
  description:
    'For clients whose WebSocket is blocked. Without a live `token` it opens a session and answers {status: 410, token}; with one it holds the request until messages arrive or the window ends.',
  tags: ['realtime'],
  querystring: z.looseObject({
    token: z.string().optional().meta({ description: 'the session, from a 410 answer' }),
    deviceid: z.string().optional().meta({ description: 'the device, when opening a session' }),
  }),
  response: {
    200: protocolAnswer('{status: 200, messages} or {status: 410, token}'),
    ...errorResponses('longPollSessionsFull'),
  },
};
const LONGPOLL_POST = {
  summary: 'Long-poll transport of the realtime channel: send frames',
  description: 'Newline-delimited JSON frames (application/x-ndjson or text/plain), or one JSON frame.',
  tags: ['realtime'],
  consumes: ['application/x-ndjson', 'text/plain', 'application/json'],
  querystring: z.looseObject({ token: z.string().optional() }),
  response: {
    200: protocolAnswer('{status}: 200 taken, 410 no such session, 400 a bad frame'),
    ...errorResponses('payloadTooLarge', 'unsupportedMediaType'),
  },
};

/** GET and POST /socket/longpoll. */
export async function longPollRoutes(
  app: FastifyInstance,
  hub: Hub,
  options: LongPollOptions,
): Promise<void> {
  const sessions = new Map<string, LongPollSession>();
  /** open sessions per client address; an address with none has no entry. */
  const perAddress = new Map<string, number>();

  app.addContentTypeParser(
    ['application/x-ndjson', 'text/plain'],
    { parseAs: 'string', bodyLimit: MAX_POST_BYTES },
    (_request, body, done) => done(null, body),
  );

  const queryOf = (url: string) => new URL(url, 'http://localhost').searchParams;

  app.get(LONGPOLL_PATH, { config: { antiforgery: false }, schema: LONGPOLL_GET }, async (request, reply) => {
    const query = queryOf(request.url);
    const token = query.get('token');
    const session = token ? sessions.get(token) : undefined;
    if (session && !session.closed) {
      session.connection.lastSeen = Date.now();
      session.poll(reply, options.windowMs);
      return reply;
    }
    // no session, or one that ended (a restart, a timeout): a new one, as Phoenix does
    const params = connectParams(query);
    if (!params) return send(reply, { status: 403 });
    const held = perAddress.get(request.ip) ?? 0;
    if (held >= options.maxPerAddress || sessions.size >= options.maxSessions)
      return refuseSession(
        reply,
        held >= options.maxPerAddress ? options.maxPerAddress : options.maxSessions,
      );
    const fresh = new LongPollSession(randomBytes(24).toString('base64url'), request.ip, (ended) => {
      sessions.delete(ended.token);
      const left = (perAddress.get(ended.address) ?? 1) - 1;
      if (left > 0) perAddress.set(ended.address, left);
      else perAddress.delete(ended.address);
      hub.drop(ended.connection);
    });
    perAddress.set(request.ip, held + 1);
    const authHeader = request.headers['x-phoenix-authtoken'];
    fresh.connection = hub.open(
      fresh,
      params.deviceId,
      typeof authHeader === 'string' ? authHeader : null,
      request.cookies[SESSION_COOKIE] ?? null,
    );
    sessions.set(fresh.token, fresh);
    return send(reply, { status: 410, token: fresh.token });
  });

  /**
   * Too many sessions: HTTP 429 with the catalogue's body, Retry-After the session lifetime (idle ones
   * end by then), and `status: 403` for Phoenix's client, which reads only the body: 403 is its
   * "connect refused", so it closes and its socket retries with backoff (a status it does not know
   * would throw inside the client).
   */
  function refuseSession(reply: FastifyReply, max: number): FastifyReply {
    const seconds = Math.ceil(options.sessionMs / 1000);
    const refused = new AppError('longPollSessionsFull', { max, retry: `${seconds} s` });
    return (
      reply
        .status(refused.status)
        .header('Retry-After', String(seconds))
        .header('Cache-Control', 'no-store')
        .type('application/json; charset=utf-8')
        // sent as text: the documented error body has no `status`, and encoding through it would drop it
        .send(JSON.stringify({ status: 403, ...refused.toBody() }))
    );
  }

  app.post(
    LONGPOLL_PATH,
    { config: { antiforgery: false }, bodyLimit: MAX_POST_BYTES, schema: LONGPOLL_POST },
    async (request, reply) => {
      const token = queryOf(request.url).get('token');
      const session = token ? sessions.get(token) : undefined;
      if (!session || session.closed) return send(reply, { status: 410 });
      const body = request.body;
      // the client sends newline-delimited frames; a single JSON frame is accepted too
      const lines =
        typeof body === 'string'
          ? body.split('\n').filter((line) => line.trim() !== '')
          : [JSON.stringify(body)];
      for (const line of lines) {
        hub.receive(session.connection, line);
        if (session.connection.closed) return send(reply, { status: 400 });
      }
      return send(reply, { status: 200 });
    },
  );
}
