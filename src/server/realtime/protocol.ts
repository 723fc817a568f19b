/**
 * The Phoenix channels protocol, version 2 (the official `phoenix` client's JSON serializer): every
 * message is a JSON array `[join_ref, ref, topic, event, payload]`. Names and limits live here once.
 */

export const PHX_JOIN = 'phx_join';
export const PHX_LEAVE = 'phx_leave';
export const PHX_REPLY = 'phx_reply';
export const PHX_CLOSE = 'phx_close';
export const PHX_ERROR = 'phx_error';
export const HEARTBEAT = 'heartbeat';
export const PHOENIX_TOPIC = 'phoenix';
export const PROTOCOL_VSN = '2.0.0';

/** A frame larger than this is refused (the socket is closed with 1009, message too big). */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Topics and events are short names; refs are the client's counters. */
const MAX_NAME_LENGTH = 200;

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export type ParseResult = { ok: true; frame: Frame } | { ok: false; reason: string };

function refOf(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'string' && value.length <= MAX_NAME_LENGTH) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Reads one frame; anything that is not a well-formed v2 message is a reason, never a throw. */
export function parseFrame(text: string): ParseResult {
  if (text.length > MAX_FRAME_BYTES) return { ok: false, reason: 'frame too large' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!Array.isArray(value) || value.length !== 5) {
    return { ok: false, reason: 'not a [join_ref, ref, topic, event, payload] array' };
  }
  const [joinRefValue, refValue, topic, event, payload] = value as unknown[];
  const joinRef = refOf(joinRefValue);
  const ref = refOf(refValue);
  if (joinRef === undefined || ref === undefined) return { ok: false, reason: 'bad ref' };
  if (typeof topic !== 'string' || topic.length === 0 || topic.length > MAX_NAME_LENGTH) {
    return { ok: false, reason: 'bad topic' };
  }
  if (typeof event !== 'string' || event.length === 0 || event.length > MAX_NAME_LENGTH) {
    return { ok: false, reason: 'bad event' };
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { ok: false, reason: 'payload must be an object' };
  }
  return { ok: true, frame: { joinRef, ref, topic, event, payload: payload as Record<string, unknown> } };
}

export function encodeFrame(
  joinRef: string | null,
  ref: string | null,
  topic: string,
  event: string,
  payload: unknown,
): string {
  return JSON.stringify([joinRef, ref, topic, event, payload]);
}

export function encodeReply(
  frame: Pick<Frame, 'joinRef' | 'ref' | 'topic'>,
  status: 'ok' | 'error',
  response: unknown,
): string {
  return encodeFrame(frame.joinRef, frame.ref, frame.topic, PHX_REPLY, { status, response });
}

/**
 * A push to many topics with one payload, serialised once: the payload's JSON is built once per
 * event, and each recipient's frame is its own prefix (which holds its topic) followed by the shared
 * suffix. `prefixFor` is what a connection keeps (see framePrefix).
 */
export function sharedSuffix(event: string, payload: unknown): Buffer {
  return Buffer.from(`,${JSON.stringify(event)},${JSON.stringify(payload)}]`);
}

/** `[null,null,"<topic>"`: the start of a server push on this topic. */
export function framePrefix(topic: string): Buffer {
  return Buffer.from(`[null,null,${JSON.stringify(topic)}`);
}

/** prefix + suffix in one buffer, for transports that send one buffer per message. */
export function joinFrame(prefix: Buffer, suffix: Buffer): Buffer {
  const out = Buffer.allocUnsafe(prefix.length + suffix.length);
  prefix.copy(out, 0);
  suffix.copy(out, prefix.length);
  return out;
}
