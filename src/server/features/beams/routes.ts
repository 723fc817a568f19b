import type { Server } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EVENT_BEAMING_LIMIT,
  beamRequest,
  dynamicByBboxRequest,
  eventBeamingRequest,
  promoRequest,
} from '../../../shared/api/live';
import { socialTopic, userTopic } from '../../../shared/api/social-live';
import { bodyContract, domainIssue, parseContract, withFieldErrors } from '../../../shared/api/contract';
import { BEAM_KINDS } from '../../../shared/domain/beams';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import type { Auth } from '../../auth/hook';
import { findLiveSession } from '../../auth/sessions';
import type { Config } from '../../config';
import { openBus, type Bus } from '../../realtime/bus';
import { CLOSE_GOING_AWAY, Hub } from '../../realtime/hub';
import { LONGPOLL_MAX_PER_ADDRESS, LONGPOLL_MAX_SESSIONS, longPollRoutes } from '../../realtime/longpoll';
import { attachWebSocket } from '../../realtime/websocket';
import { errorResponses } from '../../openapi/errors';
import type { ChangeFollower } from '../../store/follower';
import type { Store } from '../../store/store';
import { findPoint, recordActivity, rememberDevice } from './queries';
import { DEFAULT_SCHEDULER, BeamScheduler, type SchedulerOptions } from './scheduler';
import { ReportBeams } from './reports';
import { BeamService, boxOf } from './service';
import type { Limits } from '../../http/rate-limits';
import type { ChatService } from '../chat/service';
import type { SocialEvents } from '../social/events';

/**
 * A beam's body; a kind that is not one of the three is told so before anything else about the
 * body, in the spec's words (8002).
 */
const beamBody = z.preprocess((body, ctx) => {
  const kind = (body as { kind?: unknown } | null)?.kind;
  if (
    body &&
    typeof body === 'object' &&
    kind !== undefined &&
    !(BEAM_KINDS as readonly string[]).includes(String(kind))
  )
    ctx.addIssue(domainIssue('beamKindInvalid', {}, ['kind']));
  return body ?? {};
}, beamRequest);
const okStatus = z.object({ status: z.literal('ok') });
/**
 * Promo impressions and clicks one address may send a minute (per kind, in memory per process): a map
 * full of promoted points shows a few dozen; a script inventing devices is stopped here.
 */
export const PROMO_PER_IP = { max: 60, timeWindow: 60_000 };

/** A promo's device from the query: the same rule as the body's, answering 8004. */
const promoRequestFromQuery = withFieldErrors(
  z.preprocess((query) => {
    const deviceid = (query as { deviceid?: unknown }).deviceid;
    return deviceid ? { deviceid } : {};
  }, promoRequest),
  {},
  'deviceIdInvalid',
);

/**
 * Timings of the live layer. Production uses the defaults; tests and the benchmark shorten them by
 * putting a `live` object on the config they pass to buildApp (nothing reads it from the environment).
 */
export interface LiveTuning {
  /** a WebSocket silent this long is closed (the client sends a heartbeat every 30 s). */
  heartbeatTimeoutMs: number;
  /** a long-poll GET is held this long (the client waits 20 s). */
  longPollWindowMs: number;
  /** a long-poll session not polled for this long ends. */
  longPollSessionMs: number;
  /** open long-poll sessions per client address, and in all (realtime/longpoll.ts). */
  longPollMaxPerAddress: number;
  longPollMaxSessions: number;
  /** Redis channel prefix: processes with the same one share live activity. */
  busPrefix: string;
  scheduler: SchedulerOptions;
  /** false stops the clock-driven beams (tests that count beams). */
  schedulerEnabled: boolean;
}

export const DEFAULT_LIVE_TUNING: LiveTuning = {
  heartbeatTimeoutMs: 60_000,
  longPollWindowMs: 10_000,
  longPollSessionMs: 30_000,
  longPollMaxPerAddress: LONGPOLL_MAX_PER_ADDRESS,
  longPollMaxSessions: LONGPOLL_MAX_SESSIONS,
  busPrefix: 'xpoint:',
  scheduler: DEFAULT_SCHEDULER,
  schedulerEnabled: true,
};

/** What tests and the benchmark may reach of a running app's live layer. */
export interface LiveHandle {
  hub: Hub;
  bus: Bus;
  scheduler: BeamScheduler;
  service: BeamService;
  /** the app's social events (tests emit through them). */
  social: SocialEvents;
}
const handles = new WeakMap<Server, LiveHandle>();
/** The live layer of the app listening on `server` (tests, the benchmark). */
export function liveOf(server: Server): LiveHandle | undefined {
  return handles.get(server);
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Live activity (issue 9): the realtime server (/socket/websocket, /socket/longpoll), the bus, the
 * beam API, the map's dynamic and event-beaming calls, promo counting and the beam scheduler.
 */
export const liveRoutes: FastifyPluginAsync<{
  config: Config;
  store: Store;
  auth: Auth;
  /** the process's one change feed follower (app.ts): new reports beam from it. */
  follower: ChangeFollower;
  /** the process's per-address limits (http/rate-limits.ts). */
  limits: Limits;
  /** the social features' domain events: pushed to the pages and people they concern. */
  social: SocialEvents;
  /** chat with a point (issue 22): who sits in which conversation; lines stored before broadcast. */
  chat?: ChatService;
}> = async (root, { config, store, auth, follower, limits, social, chat }) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tuning: LiveTuning = {
    ...DEFAULT_LIVE_TUNING,
    ...(config as Config & { live?: Partial<LiveTuning> }).live,
  };
  const bus = openBus({ redisUrl: config.redisUrl, prefix: tuning.busPrefix, log: app.log });
  const service = new BeamService(store, bus);

  const userOfToken = async (token: string) => {
    const sessionId = auth.signer.verify(token);
    const live = sessionId ? await findLiveSession(store, sessionId, Date.now()) : undefined;
    return live?.user ?? null;
  };

  const hub = new Hub({
    bus,
    log: app.log,
    authenticate: userOfToken,
    ...(chat ? { chat } : {}),
    pointLocation: async (id) => {
      const point = await findPoint(store, id);
      return point ? { lat: point.lat, lon: point.lon } : null;
    },
    onChat: (pointId, userId) => {
      recordActivity(store, { pointId, deviceId: `u:${userId}`, kind: 'chat', now: Date.now() }).catch(
        (error: unknown) => app.log.error({ err: error }, 'live: recording a chat failed'),
      );
    },
    // in the store, not in memory: the socket and the promo call may reach different processes
    onDeviceSeen: (deviceId) => {
      rememberDevice(store, deviceId, Date.now()).catch((error: unknown) =>
        app.log.error({ err: error }, 'live: remembering a device failed'),
      );
    },
  });

  // a conversation's events (read receipts) reach its sockets on every process
  chat?.attach((room, event, payload) => bus.publish({ type: 'chat', topic: room, event, payload }));

  // social pushes go on the bus, so the pages and people they concern hear them on whichever process
  // holds their socket (through Redis when several run)
  const stopSocial = social.on((event) => {
    if (event.kind === 'object')
      bus.publish({
        type: 'social',
        topic: socialTopic(event.objectType, event.objectId),
        payload: event.message,
      });
    else if (event.kind === 'user')
      bus.publish({ type: 'social', topic: userTopic(event.userId), payload: event.message });
  });

  await app.register(rateLimit, limits.plugin());
  const websocket = attachWebSocket(app, hub);
  await longPollRoutes(app, hub, {
    windowMs: tuning.longPollWindowMs,
    sessionMs: tuning.longPollSessionMs,
    maxPerAddress: tuning.longPollMaxPerAddress,
    maxSessions: tuning.longPollMaxSessions,
  });

  const sweep = setInterval(
    () => {
      const now = Date.now();
      hub.sweep(now, tuning.heartbeatTimeoutMs, 'websocket');
      hub.sweep(now, tuning.longPollSessionMs, 'longpoll');
    },
    Math.max(50, Math.min(5000, tuning.heartbeatTimeoutMs / 4)),
  );
  sweep.unref();

  const scheduler = new BeamScheduler(
    store,
    service,
    (kind, beam) => hub.deliverLocal(kind, beam),
    app.log,
    tuning.scheduler,
  );
  if (tuning.schedulerEnabled) scheduler.start();
  const reports = new ReportBeams(store, (beam) => hub.deliverLocal('xpoint_beam', beam), follower);
  await reports.start();

  handles.set(app.server, { hub, bus, scheduler, service, social });

  // before the HTTP server stops taking connections: sockets and held polls end now, or close would wait
  app.addHook('preClose', async () => {
    websocket.close();
    hub.closeAll(CLOSE_GOING_AWAY, 'server shutting down');
  });
  app.addHook('onClose', async () => {
    stopSocial();
    clearInterval(sweep);
    await scheduler.stop();
    await reports.stop();
    await bus.close();
    handles.delete(app.server);
  });

  /**
   * The beam API's caller: `Authorization: Bearer <session token>` (social §7), or the API's own
   * `appnettoken` scheme. A session cookie alone does not count, so these routes need no anti-forgery token.
   */
  const beamViewer = async (request: FastifyRequest): Promise<Viewer> => {
    if (request.session?.via === 'header') return request.viewer;
    const header = request.headers.authorization;
    const match = header ? BEARER.exec(header) : null;
    if (!match) throw new AppError('beamTokenMissing');
    const user = await userOfToken(match[1] ?? '');
    if (!user) throw new AppError('sessionInvalid');
    return user;
  };
  // the caller is known before the body is read: a call without a token is refused whatever it carries
  const beamCallers = new WeakMap<FastifyRequest, Viewer>();
  const beamRoute = (summary: string) => ({
    config: { antiforgery: false },
    preValidation: async (request: FastifyRequest) => {
      beamCallers.set(request, await beamViewer(request));
    },
    schema: {
      summary,
      description:
        'Needs `Authorization: Bearer <session token>` (or appnettoken): a cookie alone does not count.',
      tags: ['live'],
      body: beamBody,
      response: {
        200: okStatus,
        ...errorResponses(
          'badRequest',
          'invalidField',
          'beamKindInvalid',
          'beamTokenMissing',
          'sessionInvalid',
          'beamForbidden',
          'invalidParam',
          'pointNotFound',
          'invalidEventId',
          'eventNotFound',
        ),
      },
    },
  });
  const callerOf = (request: FastifyRequest): Viewer => beamCallers.get(request) ?? null;

  app.post('/api/user/x_point/beam', beamRoute('Beam a point'), async (request, reply) => {
    await service.beamPoint(callerOf(request), request.body);
    return reply.header('Cache-Control', 'no-store').send({ status: 'ok' as const });
  });
  app.post('/api/user/x_event/beam', beamRoute('Beam an event'), async (request, reply) => {
    await service.beamEvent(callerOf(request), request.body);
    return reply.header('Cache-Control', 'no-store').send({ status: 'ok' as const });
  });

  const boxErrors = errorResponses('badRequest', 'invalidField');
  app.post(
    '/map/dynamic/bybbox',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'Live map features (dynamic points) within a viewport',
        tags: ['live'],
        body: bodyContract(dynamicByBboxRequest),
        response: { 200: z.unknown().meta({ description: 'a GeoJSON FeatureCollection' }), ...boxErrors },
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send(await service.dynamicByBbox(boxOf(request.body))),
  );
  app.post(
    '/event/rbeamingbybbox',
    {
      config: { antiforgery: false },
      schema: {
        summary: 'Events beaming within a viewport',
        tags: ['live'],
        body: bodyContract(eventBeamingRequest),
        response: {
          200: z.unknown().meta({ description: 'the beaming events, nearest first' }),
          ...boxErrors,
        },
      },
    },
    async (request, reply) => {
      const result = await service.eventBeaming(
        boxOf(request.body),
        request.body.limit ?? EVENT_BEAMING_LIMIT,
      );
      return reply.header('Cache-Control', 'no-store').send(result);
    },
  );

  // these are POST calls; a GET gets a JSON 405 rather than the web app's page
  for (const path of ['/map/dynamic/bybbox', '/event/rbeamingbybbox', '/map/promo/:id/:kind']) {
    app.get(
      path,
      {
        schema: {
          summary: `${path}: answers 405, the call is a POST`,
          tags: ['live'],
          response: errorResponses('methodNotAllowed'),
        },
      },
      async (request) => {
        throw new AppError('methodNotAllowed', { method: 'GET', path: request.url.split('?')[0] ?? path });
      },
    );
  }

  // the device comes in the JSON body, or in the query of a beacon that cannot send one
  const promoBody = withFieldErrors(
    z.preprocess((body) => body ?? undefined, promoRequest.optional()),
    {},
    'deviceIdInvalid',
  );
  const promoQuery = withFieldErrors(
    z.looseObject({ deviceid: z.string().optional() }),
    {},
    'deviceIdInvalid',
  );
  for (const kind of ['impression', 'click'] as const) {
    app.post(
      `/map/promo/:id/${kind}`,
      {
        config: { antiforgery: false, rateLimit: PROMO_PER_IP },
        schema: {
          summary: `Count a promoted point's ${kind}`,
          description:
            'Counted once per device and point an hour, only for a device that has opened a live socket; `counted` says whether this one was. At most 60 a minute from one address.',
          tags: ['live'],
          params: z.object({ id: z.string() }),
          querystring: promoQuery,
          body: promoBody,
          response: {
            200: z.object({ status: z.literal('ok'), counted: z.boolean() }),
            ...errorResponses(
              'deviceIdInvalid',
              'invalidParam',
              'pointNotFound',
              'promoNotPromoted',
              'rateLimited',
            ),
          },
        },
      },
      async (request, reply) => {
        const { deviceid } = request.body ?? parseContract(promoRequestFromQuery, request.query);
        const result = await service.promo(request.params.id, deviceid, kind);
        return reply
          .header('Cache-Control', 'no-store')
          .send({ status: 'ok' as const, counted: result.counted });
      },
    );
  }
};
