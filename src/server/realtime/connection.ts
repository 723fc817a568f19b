/**
 * One client connection, whatever carries it (a WebSocket or a long-poll session). Kept small on
 * purpose: a joined idle device costs this object, its transport and one index entry; timers are
 * shared (the hub sweeps for silence), never one per connection.
 */
export interface Transport {
  readonly kind: 'websocket' | 'longpoll';
  /** Sends one whole frame. */
  send(frame: string | Buffer): void;
  /** Sends a server push made of this connection's prefix and a suffix shared by every recipient. */
  sendShared(prefix: Buffer, suffix: Buffer): void;
  /** Ends the connection; `code` and `reason` reach a WebSocket client in its close frame. */
  close(code: number, reason: string): void;
}

export interface DeviceJoin {
  topic: string;
  joinRef: string | null;
  /** `[null,null,"device:…"` encoded once, put in front of every activity push. */
  prefix: Buffer;
}

export interface ChatJoin {
  joinRef: string | null;
  user: { id: string; username: string };
  /** the conversation sat in (issue 22), or null without a chat service. */
  seat: {
    pointId: string;
    visitorId: string;
    side: 'visitor' | 'point';
    room: string;
    location?: { lat: number; lon: number };
  } | null;
  /** where its lines go: the conversation's room, or the topic itself without a chat service. */
  room: string;
}

export class Connection {
  /** last time anything arrived: a WebSocket silent for the heartbeat timeout is closed. */
  lastSeen = Date.now();
  device: DeviceJoin | null = null;
  /** chat topic -> its join ref and the user who joined it; null until the first chat join. */
  chats: Map<string, ChatJoin> | null = null;
  /** social topic (`social:{type}:{id}`, `user:{id}`) -> its join ref; null until the first social join. */
  social: Map<string, string | null> | null = null;
  /** topics whose join is being checked (token, point): pushes to them are not matched yet. */
  joining: Set<string> | null = null;
  closed = false;

  constructor(
    readonly transport: Transport,
    /** the `deviceId` connect parameter, required. */
    readonly deviceId: string,
    /** a token given at connect (the client's `authToken` option), used for chat joins without one. */
    readonly authToken: string | null,
    /** the session cookie of the upgrade or long-poll request (the browser's credential), for `user:` joins. */
    readonly cookieToken: string | null = null,
  ) {}

  /** The join ref of `topic` if this connection has joined it. */
  joinRefOf(topic: string): string | null | undefined {
    if (this.device?.topic === topic) return this.device.joinRef;
    const chat = this.chats?.get(topic);
    if (chat) return chat.joinRef;
    return this.social?.get(topic);
  }
}
