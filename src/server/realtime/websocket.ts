import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { SOCKET_PATH } from '../../shared/api/live';
import { SESSION_COOKIE } from '../auth/hook';
import type { Connection, Transport } from './connection';
import { CLOSE_UNSUPPORTED_DATA, DEVICE_ID_PATTERN, type Hub } from './hub';
import { MAX_FRAME_BYTES, PROTOCOL_VSN, joinFrame } from './protocol';

export const WEBSOCKET_PATH = `${SOCKET_PATH}/websocket`;
/** `Sec-WebSocket-Protocol: phoenix, base64url.bearer.phx.<token>`: the client's authToken option. */
const AUTH_TOKEN_PREFIX = 'base64url.bearer.phx.';

/** The connect parameters both transports check: vsn 2.0.0 and a device id. Null when refused. */
export function connectParams(query: URLSearchParams): { deviceId: string } | null {
  const vsn = query.get('vsn');
  const deviceId = query.get('deviceId') ?? '';
  if ((vsn !== null && vsn !== PROTOCOL_VSN) || !DEVICE_ID_PATTERN.test(deviceId)) return null;
  return { deviceId };
}

class WebSocketTransport implements Transport {
  readonly kind = 'websocket' as const;
  constructor(private readonly socket: WebSocket) {}
  send(frame: string | Buffer): void {
    // Phoenix's JSON serializer reads text frames; a Buffer would go out as a binary frame
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(frame, { binary: false });
  }
  sendShared(prefix: Buffer, suffix: Buffer): void {
    if (this.socket.readyState === this.socket.OPEN)
      this.socket.send(joinFrame(prefix, suffix), { binary: false });
  }
  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(code, reason.slice(0, 120));
      // a client that never answers the close frame is cut off
      setTimeout(() => this.socket.terminate(), 2000).unref();
    }
  }
}

/** The session cookie (`xp_session`) of an upgrade request: the browser's credential for `user:` topics. */
export function sessionCookieOf(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value) || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** No Origin (not a browser) or an Origin of this very host. */
function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function authTokenOf(request: IncomingMessage): string | null {
  const header = request.headers['sec-websocket-protocol'];
  if (!header) return null;
  for (const protocol of header.split(',').map((p) => p.trim())) {
    if (!protocol.startsWith(AUTH_TOKEN_PREFIX)) continue;
    try {
      return Buffer.from(protocol.slice(AUTH_TOKEN_PREFIX.length), 'base64url').toString('utf8');
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Accepts WebSocket upgrades at /socket/websocket on the app's HTTP server. Per-message deflate is
 * off (it costs ~300 KB per socket in zlib state and CPU on every push); frames over 64 KB close the
 * socket with 1009. Returns a function that closes every socket (shutdown).
 */
export function attachWebSocket(app: FastifyInstance, hub: Hub): { close(): void } {
  const server = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_FRAME_BYTES,
    clientTracking: false,
    // the client offers "phoenix" and, with an auth token, a token protocol: answer "phoenix"
    handleProtocols: (protocols) => (protocols.has('phoenix') ? 'phoenix' : false),
  });
  let closing = false;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== WEBSOCKET_PATH) {
      // another handler may own this path; answer only when nobody else listens
      if (app.server.listenerCount('upgrade') === 1) refuse(socket, 404, 'Not Found');
      return;
    }
    socket.on('error', () => socket.destroy());
    if (closing) return refuse(socket, 503, 'Service Unavailable');
    const params = connectParams(url.searchParams);
    // Phoenix answers a refused connect with 403
    if (!params) return refuse(socket, 403, 'Forbidden');
    const authToken = authTokenOf(request);
    server.handleUpgrade(request, socket, head, (ws) => {
      const connection: Connection = hub.open(
        new WebSocketTransport(ws),
        params.deviceId,
        authToken,
        // another site's page may open a socket here with the person's cookie: only our own pages' count
        sameOrigin(request) ? sessionCookieOf(request.headers.cookie) : null,
      );
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) {
          ws.close(CLOSE_UNSUPPORTED_DATA, 'binary frames are not supported');
          hub.drop(connection);
          return;
        }
        hub.receive(connection, rawText(data));
      });
      ws.on('close', () => hub.drop(connection));
      // a frame over maxPayload, or a protocol violation: ws closes the socket itself
      ws.on('error', () => hub.drop(connection));
    });
  };
  app.server.on('upgrade', onUpgrade);
  return {
    close() {
      closing = true;
      app.server.off('upgrade', onUpgrade);
      server.close();
    },
  };
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
