/**
 * The error catalogue: every error the API answers with, created once with a code, an HTTP status
 * and a message. Codes are never reused; the spec's own codes keep the spec's numbers and messages.
 * On the wire an error is always `{"errorcode": <code>, "error": "<message>"}`.
 */
export const ERRORS = {
  // generic HTTP-level errors: 1xxx
  notFound: { code: 1000, status: 404, message: 'Not found.' },
  routeNotFound: { code: 1001, status: 404, message: 'There is no {method} {path} in this API.' },
  badRequest: { code: 1002, status: 400, message: 'The request could not be read: {reason}' },
  invalidField: { code: 1003, status: 400, message: '{field}: {reason}' },
  payloadTooLarge: { code: 1004, status: 413, message: 'The request is too large (at most {limit}).' },
  unsupportedMediaType: { code: 1005, status: 415, message: 'Content-Type {type} is not accepted here.' },
  methodNotAllowed: { code: 1006, status: 405, message: '{method} is not allowed on {path}.' },
  unauthorized: { code: 1010, status: 401, message: 'You need to sign in to do this.' },
  forbidden: { code: 1011, status: 403, message: 'You are not allowed to do this.' },
  conflict: { code: 1012, status: 409, message: 'This was changed by someone else; reload and try again.' },
  rateLimited: { code: 1020, status: 429, message: 'Too many requests; try again in {retry}.' },
  internal: { code: 1500, status: 500, message: 'Something went wrong on our side. Please try again.' },
  storeUnavailable: { code: 1503, status: 503, message: 'The store is not answering.' },
  shuttingDown: { code: 1504, status: 503, message: 'The server is restarting; try again in a moment.' },
  webAppNotBuilt: { code: 1505, status: 503, message: 'The web app is not built yet (run `npm run build`).' },

  // accounts and permissions: 2xxx
  wrongCredentials: { code: 2001, status: 401, message: 'Wrong username/email or password.' },
  sessionInvalid: {
    code: 2002,
    status: 401,
    message: 'Your session is not valid or has expired; please sign in again.',
  },
  antiforgeryMissing: {
    code: 2003,
    status: 403,
    message: 'The anti-forgery token is missing or wrong; reload the page and try again.',
  },
  usernameTaken: { code: 2004, status: 409, message: 'username: "{username}" is already taken.' },
  emailTaken: {
    code: 2005,
    status: 409,
    message: 'email: an account with this email address already exists.',
  },
  accountLocked: {
    code: 2006,
    status: 429,
    message: 'Too many failed sign-ins for this account; try again in {retry}.',
  },
  wrongCurrentPassword: {
    code: 2007,
    status: 400,
    message: 'currentPassword: the current password is wrong.',
  },
  invalidImageSize: { code: 2008, status: 413, message: 'Invalid image size. Max allowed {size}' },
  invalidImage: {
    code: 2009,
    status: 400,
    message: 'image: must be a JPEG, PNG, GIF or WebP picture sent as a base64 data URL.',
  },
  pointNotFound: { code: 2010, status: 404, message: 'There is no point with id {id}.' },
  eventNotFound: { code: 2011, status: 404, message: 'There is no event with id {id}.' },
  invalidEventId: { code: 2012, status: 400, message: 'Param [eventId] is invalid!' },

  // point tiles and clusters: 4xxx
  pointTileZoomOutOfRange: {
    code: 4001,
    status: 404,
    message: 'There are no tiles at zoom {zoom} (zooms are {min} to {max}).',
  },
  pointTileBadAddress: { code: 4002, status: 400, message: 'Bad tile address: {reason}' },
  pointLayerGroupUnknown: {
    code: 4003,
    status: 400,
    message: 'layers: {name} is not a layer group (use {groups}).',
  },
  clusterNotFound: {
    code: 4004,
    status: 404,
    message: 'There is no cluster {clusterId} in layer group {group}.',
  },
  clusterPagingInvalid: { code: 4005, status: 400, message: '{field}: {reason}' },

  // map tiles, glyphs, sprite and style: 3xxx
  mapAssetsMissing: {
    code: 3001,
    status: 503,
    message: 'The map assets are not built yet (run `npm run build:map`).',
  },
  tileZoomOutOfRange: {
    code: 3002,
    status: 404,
    message: 'There are no {source} tiles at zoom {z} (zooms {min} to {max}).',
  },
  tileBadCoordinates: { code: 3003, status: 400, message: 'Bad tile address: {reason}' },
  unknownLayerGroup: {
    code: 3004,
    status: 400,
    message: 'layers: "{group}" is not a layer group (use all, or some of {groups}).',
  },
  badImageFormat: { code: 3005, status: 400, message: 'imgformat: must be webp or png (got "{value}").' },
  badGlyphRequest: { code: 3006, status: 400, message: 'Bad glyph request: {reason}' },
  badHostHeader: { code: 3007, status: 400, message: 'The Host header is not a valid host name.' },
  badStyleVersion: {
    code: 3008,
    status: 400,
    message: 'v: at most 64 letters, digits, dots, underscores or hyphens.',
  },

  // the spec's codes (social §4, §5, §8)
  alreadyFollowed: { code: 122, status: 409, message: 'You already follow this user.' },
  invalidXpointId: { code: 6705, status: 400, message: 'Param [xpointId] is invalid!' },
  invalidPostId: { code: 19812, status: 400, message: 'Param [postid] is invalid!' },
} as const satisfies Record<string, ErrorDefinition>;

export interface ErrorDefinition {
  readonly code: number;
  readonly status: number;
  /** may hold {placeholders} filled from the error's params. */
  readonly message: string;
}

export type ErrorName = keyof typeof ERRORS;

/** The JSON body of every error response. */
export interface ErrorBody {
  errorcode: number;
  error: string;
}

/** An error with a catalogue entry: the user sees `message`, the log also gets `cause`. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  readonly errorName: ErrorName;

  constructor(name: ErrorName, params: Record<string, string | number> = {}, options?: { cause?: unknown }) {
    const definition: ErrorDefinition = ERRORS[name];
    super(fillPlaceholders(definition.message, params), options);
    this.name = 'AppError';
    this.errorName = name;
    this.code = definition.code;
    this.status = definition.status;
  }

  toBody(): ErrorBody {
    return { errorcode: this.code, error: this.message };
  }
}

export function fillPlaceholders(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

/** Codes must be unique: a test checks this, and so does this guard at load time in development. */
export function duplicateCodes(): number[] {
  const seen = new Set<number>();
  const duplicates: number[] = [];
  for (const { code } of Object.values(ERRORS)) {
    if (seen.has(code)) duplicates.push(code);
    seen.add(code);
  }
  return duplicates;
}
