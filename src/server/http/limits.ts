/**
 * What a request may weigh before any route reads it: the body limit of each route, the nesting of a
 * JSON body, the length of the address. A body past its route's limit is refused while it streams in
 * (413), so nobody can make the process hold more than the largest legitimate write.
 */

const KIB = 1024;

/**
 * Every route that takes a body and is not listed below: sign-in, sign-up, searches, beams, claims,
 * deletes. The largest of them, a claim with 2,000 characters of text, is 12.1 KB when a client
 * escapes every character as \uXXXX (as Python's json.dumps does by default).
 */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * KIB;

/** A callback request with every field at its longest: 16.1 KB escaped, just past the default. */
export const CALLBACK_BODY_LIMIT_BYTES = 24 * KIB;

/**
 * A point's or an event's whole form: every field at its maximum length comes to 82.6 KB (a point with
 * 20 contacts) and 85.4 KB (an event with 100 opening intervals and 20 tickets) escaped as \uXXXX
 * (measured by test/server/http-limits.test.ts, which sends them).
 */
export const FORM_BODY_LIMIT_BYTES = 128 * KIB;

/**
 * Routes whose largest legitimate body is over the default. Routes that set their own `bodyLimit`
 * (the media uploads, the long-poll transport) keep it; GET and HEAD requests have no body at all.
 */
export const ROUTE_BODY_LIMITS: Readonly<Record<string, number>> = {
  'POST /v1/xpoint/create': FORM_BODY_LIMIT_BYTES,
  'POST /v1/xpoint/update': FORM_BODY_LIMIT_BYTES,
  'POST /v1/event/create': FORM_BODY_LIMIT_BYTES,
  'POST /v1/event/update': FORM_BODY_LIMIT_BYTES,
  'POST /v1/webonly/meonmap/requestimmunizationcard': CALLBACK_BODY_LIMIT_BYTES,
};

/** The body limit of `method url` when the route does not set one. */
export function bodyLimitOf(method: string, url: string): number {
  return ROUTE_BODY_LIMITS[`${method} ${url}`] ?? DEFAULT_BODY_LIMIT_BYTES;
}

/** 16 KiB as "16 KiB", 1.5 MiB as "1.5 MiB": the limit in a refusal's message. */
export function formatBytes(bytes: number): string {
  if (bytes >= KIB * KIB) return `${Math.round((bytes / KIB / KIB) * 10) / 10} MiB`;
  if (bytes >= KIB) return `${Math.round((bytes / KIB) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/**
 * The deepest JSON a request may carry. Our deepest contract is 3 levels (an event's tickets); 32
 * leaves room for any client's wrapping while keeping JSON.parse, the prototype-poisoning scan and
 * zod, all recursive, far from the stack's end (5,000 levels overflowed it: a 500).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text` opens more than `max` arrays or objects inside each other. One linear pass that
 * counts brackets outside strings, run before JSON.parse so nothing recursive sees a deep body; it
 * does not check that the text is JSON (the parser does, afterwards).
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * Node's limit on the request line and headers together (its default, kept): an address past it is
 * answered 414 when the request line alone is too long, 431 when the headers are (app.ts, clientError).
 */
export const MAX_HEADER_BYTES = 16 * KIB;

/**
 * The longest address answered (RFC 9110 §4.1 asks for at least 8,000 octets): a longer one is 414,
 * whether Node's header limit catches it or it fits under that limit.
 */
export const MAX_URL_BYTES = 8 * KIB;
