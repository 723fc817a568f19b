import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  CHAT_MESSAGE_EVENT,
  CHAT_TOPIC_PREFIX,
  DEVICE_TOPIC_PREFIX,
  IQ_EVENT,
  latLonSchema,
  type ActivityIq,
  type ChatActivityItem,
  type GlobalBeamItem,
} from '../../shared/api/live';
import {
  SOCIAL_EVENT,
  SOCIAL_OBJECT_TYPES,
  SOCIAL_TOPIC_PREFIX,
  USER_TOPIC_PREFIX,
} from '../../shared/api/social-live';
import { isValidId } from '../../shared/domain/ids';
import { CHAT_TEXT_MAX } from '../../shared/api/chat';
import { AppError, ERRORS, fillPlaceholders, type ErrorName } from '../../shared/errors';
import type { Bus, BusMessage } from './bus';
import { Connection, type Transport } from './connection';
import {
  HEARTBEAT,
  PHOENIX_TOPIC,
  PHX_CLOSE,
  PHX_JOIN,
  PHX_LEAVE,
  encodeFrame,
  encodeReply,
  framePrefix,
  parseFrame,
  sharedSuffix,
  type Frame,
} from './protocol';
import { BoundsIndex, type VisibleBounds } from './spatial';

/** A device id (connect parameter `deviceId`): the spec's id characters, at most 64. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Social topics one connection may hold: a long feed page shows ~100 objects; more is a crawler. */
export const MAX_SOCIAL_TOPICS = 200;
/** WebSocket close codes. */
export const CLOSE_UNSUPPORTED_DATA = 1003;
export const CLOSE_INVALID_PAYLOAD = 1007;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_NORMAL = 1000;

export interface HubDeps {
  bus: Bus;
  log: FastifyBaseLogger;
  /** the user a session token belongs to, or null (bad, revoked or expired). */
  authenticate(token: string): Promise<{ id: string; username: string } | null>;
  /** where a point is, or null when there is no such point. */
  pointLocation(id: string): Promise<{ lat: number; lon: number } | null>;
  /** a chat line was sent about a point (for hot ranking). */
  onChat?(pointId: string, userId: string): void;
  /** a device opened a connection (promo counting trusts only devices met this way). */
  onDeviceSeen?(deviceId: string): void;
  /**
   * Chat with a point (issue 22, features/chat/service.ts): which conversation a join sits in and
   * the storing of a line. Without it a chat topic is one room for everyone who joins it.
   */
  chat?: ChatRooms;
}

/** A conversation as a chat join holds it: its lines go to `room`; `side` is the joiner's. */
export interface ChatSeatOf {
  pointId: string;
  visitorId: string;
  side: 'visitor' | 'point';
  room: string;
  /** where the point is, for its chat beam (saves a read per line). */
  location?: { lat: number; lon: number };
}

export interface ChatRooms {
  /** the conversation `user` sits in on the point (`visitor` names it for the point's controllers); throws AppError. */
  seat(user: { id: string; username: string }, pointId: string, visitor: unknown): Promise<ChatSeatOf>;
  /** stores a line and answers it (`fresh` false for a resend already stored); throws AppError. */
  send(
    user: { id: string; username: string },
    seat: ChatSeatOf,
    payload: Record<string, unknown>,
  ): Promise<{ line: Record<string, unknown> & { id: number; at: number }; fresh: boolean }>;
}

function errorResponse(name: ErrorName, params: Record<string, string | number> = {}) {
  const error = fillPlaceholders(ERRORS[name].message, params);
  // `reason` is the Phoenix convention for refusals; errorcode and error are ours (the catalogue).
  return { reason: error, errorcode: ERRORS[name].code, error };
}

/** A refusal thrown by the chat service, in the same shape; anything else is not ours to show. */
function appErrorResponse(error: unknown) {
  if (error instanceof AppError)
    return { reason: error.message, errorcode: error.code, error: error.message };
  return null;
}

/**
 * The channels: `device:{deviceid}` (map bounds up, activity down) and `chat:{point id}` (needs a
 * user token), with Phoenix's own answers to everything else. Every connection of this process is
 * here, whatever its transport; activity from the bus is delivered to the devices whose bounds
 * contain it, with the payload serialised once per message.
 */
export class Hub {
  readonly connections = new Set<Connection>();
  readonly index = new BoundsIndex<Connection>();
  /** a conversation's room (`chat:{point}:{visitor}`, or the topic without a chat service) -> its connections here. */
  private readonly chatMembers = new Map<string, Set<Connection>>();
  /** `social:{type}:{id}` and `user:{id}` topic -> the connections of this process that joined it. */
  private readonly socialMembers = new Map<string, Set<Connection>>();
  /** recipient selection times of recent deliveries, wall clock and process CPU, in ms (bench/live.ts reads them). */
  readonly selectionTimes: number[] = [];
  readonly selectionCpuTimes: number[] = [];
  /** when the last push to devices began, on the system's monotonic clock in ms (comparable across processes). */
  lastPushAt = 0;
  private readonly recentChats = new Map<string, number[]>();

  constructor(private readonly deps: HubDeps) {
    deps.bus.subscribe((message) => this.deliver(message));
  }

  open(
    transport: Transport,
    deviceId: string,
    authToken: string | null,
    cookieToken: string | null = null,
  ): Connection {
    const connection = new Connection(transport, deviceId, authToken, cookieToken);
    this.connections.add(connection);
    this.deps.onDeviceSeen?.(deviceId);
    return connection;
  }

  /** Forgets a connection whose transport has ended. */
  drop(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    this.connections.delete(connection);
    this.index.delete(connection);
    if (connection.chats) for (const topic of connection.chats.keys()) this.leaveChat(connection, topic);
    if (connection.social) for (const topic of connection.social.keys()) this.leaveSocial(connection, topic);
  }

  /** Closes every connection (shutdown). */
  closeAll(code: number, reason: string): void {
    for (const connection of [...this.connections]) {
      connection.transport.close(code, reason);
      this.drop(connection);
    }
  }

  /** Closes the connections silent for longer than `timeoutMs`, of the given transport. */
  sweep(now: number, timeoutMs: number, kind: Transport['kind']): number {
    let closed = 0;
    for (const connection of this.connections) {
      if (connection.transport.kind !== kind || now - connection.lastSeen <= timeoutMs) continue;
      connection.transport.close(CLOSE_GOING_AWAY, 'heartbeat timeout');
      this.drop(connection);
      closed++;
    }
    return closed;
  }

  /**
   * One incoming text frame. A frame that is not a v2 message closes the connection (Phoenix's socket
   * would crash on it); everything else is answered on its own topic, never affecting another client.
   */
  receive(connection: Connection, text: string): void {
    if (connection.closed) return;
    connection.lastSeen = Date.now();
    const parsed = parseFrame(text);
    if (!parsed.ok) {
      this.deps.log.debug({ reason: parsed.reason }, 'realtime: refused a malformed frame');
      connection.transport.close(CLOSE_INVALID_PAYLOAD, `bad frame: ${parsed.reason}`);
      this.drop(connection);
      return;
    }
    const frame = parsed.frame;
    if (frame.topic === PHOENIX_TOPIC) {
      if (frame.event === HEARTBEAT) connection.transport.send(encodeReply(frame, 'ok', {}));
      else connection.transport.send(encodeReply(frame, 'error', errorResponse('liveUnmatchedTopic')));
      return;
    }
    if (frame.event === PHX_JOIN) {
      this.join(connection, frame);
      return;
    }
    const joinRef = connection.joinRefOf(frame.topic);
    // Phoenix: a message for a topic this socket has not joined (or an old join of it) is refused
    if (joinRef === undefined || (frame.joinRef !== null && frame.joinRef !== joinRef)) {
      connection.transport.send(encodeReply(frame, 'error', errorResponse('liveUnmatchedTopic')));
      return;
    }
    if (frame.event === PHX_LEAVE) {
      this.leave(connection, frame.topic);
      connection.transport.send(encodeReply(frame, 'ok', {}));
      return;
    }
    if (frame.topic.startsWith(DEVICE_TOPIC_PREFIX) && frame.event === IQ_EVENT) {
      this.deviceIq(connection, frame);
      return;
    }
    if (frame.topic.startsWith(CHAT_TOPIC_PREFIX) && frame.event === CHAT_MESSAGE_EVENT) {
      this.chatMessage(connection, frame);
      return;
    }
    connection.transport.send(
      encodeReply(frame, 'error', errorResponse('liveUnknownEvent', { event: frame.event.slice(0, 50) })),
    );
  }

  private join(connection: Connection, frame: Frame): void {
    const topic = frame.topic;
    const isDevice = topic.startsWith(DEVICE_TOPIC_PREFIX);
    const isChat = topic.startsWith(CHAT_TOPIC_PREFIX);
    const isSocial = topic.startsWith(SOCIAL_TOPIC_PREFIX);
    const isUser = topic.startsWith(USER_TOPIC_PREFIX);
    if (!isDevice && !isChat && !isSocial && !isUser) {
      connection.transport.send(encodeReply(frame, 'error', errorResponse('liveUnmatchedTopic')));
      return;
    }
    if (connection.joining?.has(topic)) {
      connection.transport.send(encodeReply(frame, 'error', errorResponse('liveAlreadyJoining')));
      return;
    }
    // Phoenix closes an existing channel on a duplicate join, then joins anew
    const previous = connection.joinRefOf(topic);
    if (previous !== undefined) {
      this.leave(connection, topic);
      connection.transport.send(encodeFrame(previous, previous, topic, PHX_CLOSE, {}));
    }
    if (isDevice) {
      const id = topic.slice(DEVICE_TOPIC_PREFIX.length);
      if (id !== connection.deviceId) {
        connection.transport.send(encodeReply(frame, 'error', errorResponse('liveDeviceMismatch')));
        return;
      }
      connection.device = { topic, joinRef: frame.joinRef, prefix: framePrefix(topic) };
      connection.transport.send(encodeReply(frame, 'ok', {}));
      // bounds may come with the join, saving a round trip
      const bounds = boundsOf(frame.payload);
      if (bounds.ok) this.index.set(connection, bounds.bounds);
      return;
    }
    if (isSocial || isUser) {
      if ((connection.social?.size ?? 0) >= MAX_SOCIAL_TOPICS) {
        connection.transport.send(
          encodeReply(frame, 'error', errorResponse('liveTooManyTopics', { max: MAX_SOCIAL_TOPICS })),
        );
        return;
      }
      if (isSocial) this.joinSocial(connection, frame);
      else void this.joinUser(connection, frame);
      return;
    }
    void this.joinChat(connection, frame);
  }

  /** `social:{type}:{id}`: public, any page showing the object; the id's form is checked, not its existence. */
  private joinSocial(connection: Connection, frame: Frame): void {
    const rest = frame.topic.slice(SOCIAL_TOPIC_PREFIX.length);
    const colon = rest.indexOf(':');
    const type = colon > 0 ? rest.slice(0, colon) : '';
    const id = colon > 0 ? rest.slice(colon + 1) : '';
    if (!(SOCIAL_OBJECT_TYPES as readonly string[]).includes(type) || !isValidId(id)) {
      connection.transport.send(
        encodeReply(
          frame,
          'error',
          errorResponse('liveSocialTopicInvalid', { types: SOCIAL_OBJECT_TYPES.join(', ') }),
        ),
      );
      return;
    }
    this.addSocialMember(connection, frame.topic, frame.joinRef);
    connection.transport.send(encodeReply(frame, 'ok', {}));
  }

  /**
   * `user:{id}`: only that user's session may join. The session comes as the join's `token`, the
   * socket's authToken (like chat), or the session cookie of the upgrade / long-poll request.
   */
  private async joinUser(connection: Connection, frame: Frame): Promise<void> {
    const topic = frame.topic;
    const userId = topic.slice(USER_TOPIC_PREFIX.length);
    const given = frame.payload['token'];
    const token =
      typeof given === 'string' && given ? given : (connection.authToken ?? connection.cookieToken);
    if (!isValidId(userId) || !token) {
      connection.transport.send(encodeReply(frame, 'error', errorResponse('liveUserTopicForbidden')));
      return;
    }
    (connection.joining ??= new Set()).add(topic);
    try {
      const user = await this.deps.authenticate(token);
      if (connection.closed) return;
      if (!user) {
        connection.transport.send(encodeReply(frame, 'error', errorResponse('sessionInvalid')));
        return;
      }
      if (user.id !== userId) {
        this.deps.log.debug({ topic }, "realtime: a join of another user's topic refused");
        connection.transport.send(encodeReply(frame, 'error', errorResponse('liveUserTopicForbidden')));
        return;
      }
      this.addSocialMember(connection, topic, frame.joinRef);
      connection.transport.send(encodeReply(frame, 'ok', {}));
    } catch (error) {
      this.deps.log.error({ err: error, topic }, 'realtime: user topic join failed');
      if (!connection.closed)
        connection.transport.send(encodeReply(frame, 'error', errorResponse('internal')));
    } finally {
      connection.joining?.delete(topic);
      if (connection.joining?.size === 0) connection.joining = null;
    }
  }

  private addSocialMember(connection: Connection, topic: string, joinRef: string | null): void {
    (connection.social ??= new Map()).set(topic, joinRef);
    let members = this.socialMembers.get(topic);
    if (!members) this.socialMembers.set(topic, (members = new Set()));
    members.add(connection);
  }

  private leaveSocial(connection: Connection, topic: string): void {
    connection.social?.delete(topic);
    if (connection.social?.size === 0) connection.social = null;
    const members = this.socialMembers.get(topic);
    if (!members) return;
    members.delete(connection);
    if (members.size === 0) this.socialMembers.delete(topic);
  }

  /** Connections of this process on a social or user topic (tests). */
  socialMemberCount(topic: string): number {
    return this.socialMembers.get(topic)?.size ?? 0;
  }

  private async joinChat(connection: Connection, frame: Frame): Promise<void> {
    const topic = frame.topic;
    const pointId = topic.slice(CHAT_TOPIC_PREFIX.length);
    const given = frame.payload['token'];
    // the join's token, the socket's, or the browser's session cookie of the upgrade (as user topics)
    const token =
      typeof given === 'string' && given ? given : (connection.authToken ?? connection.cookieToken);
    if (!token) {
      this.deps.log.debug({ topic }, 'realtime: chat join without a token refused');
      connection.transport.send(encodeReply(frame, 'error', errorResponse('liveChatNeedsToken')));
      return;
    }
    if (!isValidId(pointId)) {
      connection.transport.send(encodeReply(frame, 'error', errorResponse('invalidParam')));
      return;
    }
    (connection.joining ??= new Set()).add(topic);
    try {
      const user = await this.deps.authenticate(token);
      if (connection.closed) return;
      if (!user) {
        connection.transport.send(encodeReply(frame, 'error', errorResponse('sessionInvalid')));
        return;
      }
      let seat: ChatSeatOf | null = null;
      if (this.deps.chat) {
        // the conversation: a visitor's own, or the one a controller of the point names
        seat = await this.deps.chat.seat(user, pointId, frame.payload['visitor']);
      } else if (!(await this.deps.pointLocation(pointId))) {
        throw new AppError('pointNotFound', { id: pointId });
      }
      if (connection.closed) return;
      const room = seat?.room ?? topic;
      (connection.chats ??= new Map()).set(topic, { joinRef: frame.joinRef, user, seat, room });
      let members = this.chatMembers.get(room);
      if (!members) this.chatMembers.set(room, (members = new Set()));
      members.add(connection);
      connection.transport.send(
        encodeReply(frame, 'ok', seat ? { visitor_id: seat.visitorId, side: seat.side } : {}),
      );
    } catch (error) {
      const refusal = appErrorResponse(error);
      if (refusal) {
        if (!connection.closed) connection.transport.send(encodeReply(frame, 'error', refusal));
        return;
      }
      this.deps.log.error({ err: error, topic }, 'realtime: chat join failed');
      if (!connection.closed)
        connection.transport.send(encodeReply(frame, 'error', errorResponse('internal')));
    } finally {
      connection.joining?.delete(topic);
      if (connection.joining?.size === 0) connection.joining = null;
    }
  }

  private leave(connection: Connection, topic: string): void {
    if (connection.device?.topic === topic) {
      connection.device = null;
      this.index.delete(connection);
      return;
    }
    if (connection.social?.has(topic)) {
      this.leaveSocial(connection, topic);
      return;
    }
    this.leaveChat(connection, topic);
  }

  private leaveChat(connection: Connection, topic: string): void {
    const room = connection.chats?.get(topic)?.room ?? topic;
    connection.chats?.delete(topic);
    if (connection.chats?.size === 0) connection.chats = null;
    const members = this.chatMembers.get(room);
    if (!members) return;
    members.delete(connection);
    if (members.size === 0) this.chatMembers.delete(room);
  }

  /** `iq` on the device topic: type `set` with map_state.visible_bounds. */
  private deviceIq(connection: Connection, frame: Frame): void {
    const { payload } = frame;
    const id = typeof payload['id'] === 'string' ? payload['id'].slice(0, 64) : null;
    if (payload['type'] !== 'set') {
      connection.transport.send(
        encodeReply(frame, 'error', {
          id,
          ...errorResponse('liveIqInvalid', { reason: 'type must be "set".' }),
        }),
      );
      return;
    }
    const bounds = boundsOf(payload);
    if (!bounds.ok) {
      connection.transport.send(
        encodeReply(frame, 'error', { id, ...errorResponse('liveBoundsInvalid', { reason: bounds.reason }) }),
      );
      return;
    }
    this.index.set(connection, bounds.bounds);
    connection.transport.send(encodeReply(frame, 'ok', { id }));
  }

  private chatMessage(connection: Connection, frame: Frame): void {
    const joined = connection.chats?.get(frame.topic);
    if (!joined) return;
    const { user, seat, room } = joined;
    const chat = this.deps.chat;
    if (!chat || !seat) {
      // no chat service: the topic is one room and nothing is stored (tests of the realtime layer alone)
      const text = frame.payload['text'];
      if (typeof text !== 'string' || text.trim() === '' || text.length > CHAT_TEXT_MAX) {
        connection.transport.send(
          encodeReply(frame, 'error', errorResponse('liveChatTextInvalid', { max: CHAT_TEXT_MAX })),
        );
        return;
      }
      connection.transport.send(encodeReply(frame, 'ok', {}));
      this.afterChat(room, frame.topic.slice(CHAT_TOPIC_PREFIX.length), user.id, {
        id: randomUUID(),
        from: user.username,
        text,
        at: Date.now(),
      });
      return;
    }
    // stored before it is acknowledged, acknowledged before it is broadcast
    const payload =
      frame.payload['client_id'] === undefined
        ? { ...frame.payload, client_id: randomUUID() }
        : frame.payload;
    chat
      .send(user, seat, payload)
      .then(({ line, fresh }) => {
        if (!connection.closed) connection.transport.send(encodeReply(frame, 'ok', line));
        if (fresh) this.afterChat(room, seat.pointId, user.id, line, seat.location);
      })
      .catch((error: unknown) => {
        const refusal = appErrorResponse(error);
        if (!refusal) this.deps.log.error({ err: error }, 'realtime: storing a chat line failed');
        if (!connection.closed)
          connection.transport.send(encodeReply(frame, 'error', refusal ?? errorResponse('internal')));
      });
  }

  /** A line is out: to every socket in its conversation, and to the map's chat beams (§3, §4). */
  private afterChat(
    room: string,
    pointId: string,
    userId: string,
    line: Record<string, unknown>,
    location?: { lat: number; lon: number },
  ): void {
    this.deps.bus.publish({ type: 'chat', topic: room, payload: line });
    this.deps.onChat?.(pointId, userId);
    const at = Date.now();
    void (location ? Promise.resolve(location) : this.deps.pointLocation(pointId))
      .then((point) => {
        if (!point) return;
        const item: ChatActivityItem = {
          properties: { id: pointId, mag: this.chatMagnitude(pointId, at), last_stamp: at },
          coordinates: [point.lon, point.lat],
        };
        this.deps.bus.publish({ type: 'map_activity', item });
      })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'realtime: chat activity failed'));
  }

  /** Chat lines about the point in the last 10 minutes, as this process saw them. */
  private chatMagnitude(pointId: string, now: number): number {
    const windowMs = 10 * 60_000;
    const stamps = (this.recentChats.get(pointId) ?? []).filter((t) => now - t < windowMs);
    stamps.push(now);
    this.recentChats.set(pointId, stamps);
    if (this.recentChats.size > 10_000) {
      for (const [id, list] of this.recentChats)
        if (now - (list.at(-1) ?? 0) >= windowMs) this.recentChats.delete(id);
    }
    return stamps.length;
  }

  /** Delivers a bus message to this process's recipients. */
  deliver(message: BusMessage): number {
    switch (message.type) {
      case 'xpoint_beam':
        return this.pushAt(message.beam.properties.lat, message.beam.properties.lon, {
          xpoint_activity: { beam: message.beam },
        });
      case 'event_beam':
        return this.pushAt(message.beam.properties.lat, message.beam.properties.lon, {
          event_activity: { beam: message.beam },
        });
      case 'map_activity':
        return this.pushAt(message.item.coordinates[1], message.item.coordinates[0], {
          map_activity: message.item,
        });
      case 'chat': {
        const members = this.chatMembers.get(message.topic);
        if (!members) return 0;
        // a room `chat:{point}:{visitor}` is heard on its topic `chat:{point}`
        const topic = message.topic.split(':', 2).join(':');
        const frame = Buffer.from(
          encodeFrame(null, null, topic, message.event ?? CHAT_MESSAGE_EVENT, message.payload),
        );
        for (const member of members) member.transport.send(frame);
        return members.size;
      }
      case 'social': {
        const members = this.socialMembers.get(message.topic);
        if (!members) return 0;
        const frame = Buffer.from(encodeFrame(null, null, message.topic, SOCIAL_EVENT, message.payload));
        for (const member of members) member.transport.send(frame);
        return members.size;
      }
      default:
        return 0;
    }
  }

  /** Pushes one beam to this process's devices only (the scheduler's beams: every process computes them). */
  deliverLocal(kind: 'xpoint_beam' | 'event_beam', beam: GlobalBeamItem): number {
    const message: BusMessage = { type: kind, beam };
    return this.deliver(message);
  }

  private pushAt(lat: number, lon: number, activity: Record<string, unknown>): number {
    const payload = { id: randomUUID(), type: 'set', ...activity } as ActivityIq;
    this.lastPushAt = Number(process.hrtime.bigint()) / 1e6;
    // Selection allocates nothing between the two clock readings (the CPU readings, which do, sit
    // outside them), so a garbage collection cannot land inside the measured selection.
    const cpu = process.cpuUsage();
    const started = performance.now();
    this.recipientCount = 0;
    this.index.forEachAt(lat, lon, this.collectRecipient);
    const selected = performance.now();
    const used = process.cpuUsage(cpu);
    this.recordSelection(selected - started, (used.user + used.system) / 1000);
    const count = this.recipientCount;
    if (count === 0) return 0;
    const recipients = this.recipients;
    const suffix = sharedSuffix(IQ_EVENT, payload);
    for (let i = 0; i < count; i++) {
      const connection = recipients[i] as Connection;
      // the buffer keeps no connection alive past this delivery
      recipients[i] = undefined;
      const device = connection.device;
      if (device) connection.transport.sendShared(device.prefix, suffix);
    }
    return count;
  }

  /** The recipients of the delivery under way: a buffer reused by every delivery (it only grows). */
  private readonly recipients: (Connection | undefined)[] = [];
  private recipientCount = 0;
  private readonly collectRecipient = (connection: Connection): void => {
    this.recipients[this.recipientCount++] = connection;
  };

  private recordSelection(ms: number, cpuMs: number): void {
    if (this.selectionTimes.length >= 100_000) {
      this.selectionTimes.length = 0;
      this.selectionCpuTimes.length = 0;
    }
    this.selectionTimes.push(ms);
    this.selectionCpuTimes.push(cpuMs);
  }
}

type BoundsResult = { ok: true; bounds: VisibleBounds } | { ok: false; reason: string };

/** map_state.visible_bounds {sw: {lat, lon}, ne: {lat, lon}} of an iq payload, checked. */
export function boundsOf(payload: Record<string, unknown>): BoundsResult {
  const mapState = payload['map_state'];
  const visible =
    mapState && typeof mapState === 'object'
      ? (mapState as Record<string, unknown>)['visible_bounds']
      : undefined;
  if (!visible || typeof visible !== 'object') {
    return { ok: false, reason: 'map_state.visible_bounds {sw: {lat, lon}, ne: {lat, lon}} is required.' };
  }
  const { sw, ne } = visible as Record<string, unknown>;
  const corner = (name: string, value: unknown) => {
    const parsed = latLonSchema.safeParse(value);
    return parsed.success
      ? { ok: true as const, value: parsed.data }
      : {
          ok: false as const,
          reason: `${[name, ...(parsed.error.issues[0]?.path ?? [])].join('.')}: ${parsed.error.issues[0]?.message ?? 'must be {lat, lon}.'}`,
        };
  };
  const south = corner('sw', sw);
  if (!south.ok) return south;
  const north = corner('ne', ne);
  if (!north.ok) return north;
  if (south.value.lat > north.value.lat) return { ok: false, reason: 'sw.lat must not exceed ne.lat.' };
  return { ok: true, bounds: { sw: south.value, ne: north.value } };
}
