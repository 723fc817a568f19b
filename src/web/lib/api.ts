import type { z } from 'zod';
import { ANTIFORGERY_HEADER } from '../../shared/api/wire';
import { lazySchema, resolveSchema, type SchemaSource } from './schemas';
import { parseErrorBody, safeErrorText } from '../../shared/http/safeText';

/**
 * The typed API client: JSON in, JSON out, every answer parsed with its zod contract from
 * src/shared/api. The browser's credential is the httpOnly session cookie; state-changing calls
 * also carry the anti-forgery token, which the server puts in `<meta name="csrf-token">` on every
 * page and which must be refreshed after sign-in and sign-out (it is bound to the session).
 */

/** A failed call: the server's `{errorcode, error, field}`, or a network or contract failure. */
export class ApiError extends Error {
  constructor(
    /** the catalogue's errorcode; 0 for a network failure, -1 for an answer we could not read. */
    readonly code: number,
    message: string,
    /** the HTTP status; 0 when no answer came. */
    readonly status: number,
    /** the request field at fault, when the server named one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * The message as shown beside its field: without the leading `field: ` the catalogue puts in
   * front of a field's message (the field is known, so this is a prefix, not parsing).
   */
  get reason(): string {
    const prefix = `${this.field}: `;
    return this.field !== undefined && this.message.startsWith(prefix)
      ? this.message.slice(prefix.length)
      : this.message;
  }
}

/** The field a failed call names and the reason to show beside it, or null when it names none. */
export function fieldError(error: unknown): { field: string; reason: string } | null {
  return error instanceof ApiError && error.field !== undefined
    ? { field: error.field, reason: error.reason }
    : null;
}

/** Codes the web app reacts to by number. */
export const API_ERROR_CODES = { network: 0, unreadable: -1, unauthorized: 1010, sessionInvalid: 2002 };

const SAFE_METHODS = new Set(['GET', 'HEAD']);

let antiforgeryToken: string | null = null;

/** The page's anti-forgery token: the last one fetched, else the one the server put in the page. */
export function currentAntiforgeryToken(): string | null {
  if (antiforgeryToken !== null) return antiforgeryToken;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  return meta?.content || null;
}

/** Keeps a token the server handed over (the login answer carries one), also in the page's meta. */
export function setAntiforgeryToken(token: string): void {
  antiforgeryToken = token;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (meta) meta.content = token;
}

/** Asks the server for the token that belongs to the current session (after sign-in or sign-out). */
export async function refreshAntiforgeryToken(): Promise<void> {
  const { token } = await apiGet('/v1/account/antiforgery', lazySchema('antiforgeryResponseSchema'));
  setAntiforgeryToken(token);
}

type WriteListener = (path: string) => void;
const writeListeners = new Set<WriteListener>();

/**
 * Hears every write the server accepted (src/web/app/App.tsx invalidates the query cache with it, for
 * the writes that do not go through a mutation yet). Returns the way to stop listening.
 */
export function onApiWrite(listener: WriteListener): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

export interface RequestOptions {
  signal?: AbortSignal;
  /**
   * A POST that only reads (the spec's POST reads: the reviews page, `/likes/list`, a comments page): not heard as a write, or the
   * refresh that hears writes would fetch it again, and again.
   */
  read?: boolean;
  /**
   * Sends the body as form fields (application/x-www-form-urlencoded) rather than JSON: §7 posts the
   * suggestions so. A nested object becomes bracketed fields, `southwest[lat]=…`.
   */
  form?: boolean;
  /** Extra request headers (§7: the paged search says `X-Requested-With`). */
  headers?: Record<string, string>;
}

/** A flat or one-level-nested object as form fields: `{a: {b: 1}}` → `a[b]=1`; null and undefined are left out. */
export function formFields(body: Record<string, unknown>): URLSearchParams {
  const fields = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (typeof value === 'object')
      for (const [inner, nested] of Object.entries(value as Record<string, unknown>))
        add(`${key}[${inner}]`, nested);
    else fields.append(key, String(value as string | number | boolean));
  };
  for (const [key, value] of Object.entries(body)) add(key, value);
  return fields;
}

async function request<S extends z.ZodType>(
  method: string,
  path: string,
  source: SchemaSource<S>,
  body: unknown,
  options: RequestOptions,
): Promise<z.output<S>> {
  // a schema still to load loads while the call is under way
  const schema = schemaOf(source);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const form = options.form === true && body !== undefined;
  if (body !== undefined)
    headers['Content-Type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
  if (!SAFE_METHODS.has(method)) {
    const token = currentAntiforgeryToken();
    if (token !== null) headers[ANTIFORGERY_HEADER] = token;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body:
        body === undefined
          ? undefined
          : form
            ? formFields(body as Record<string, unknown>).toString()
            : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(API_ERROR_CODES.network, 'Internet Connection lost or server is not responding!', 0);
  }
  const text = await response.text().catch(() => '');
  return readAnswer(options.read ? 'GET' : method, path, await schema, response.status, text);
}

/** The schema from its source; one that cannot be loaded fails as the network does. */
function schemaOf<S extends z.ZodType>(source: SchemaSource<S>): Promise<S> {
  const loaded = Promise.resolve(resolveSchema(source)).catch(() => {
    throw new ApiError(API_ERROR_CODES.network, 'Internet Connection lost or server is not responding!', 0);
  });
  // awaited after the call, which may fail first: not an unhandled rejection meanwhile
  loaded.catch(() => undefined);
  return loaded;
}

/** An answer's text through its contract; a failure as an ApiError; a write heard by the listeners. */
function readAnswer<S extends z.ZodType>(
  method: string,
  path: string,
  schema: S,
  status: number,
  text: string,
): z.output<S> {
  if (status < 200 || status > 299) throw toApiError(status, text);
  let payload: unknown;
  try {
    payload = JSON.parse(text) as unknown;
  } catch {
    payload = undefined;
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new ApiError(API_ERROR_CODES.unreadable, 'Server returned EMPTY/Invalid response!', status);
  }
  if (!SAFE_METHODS.has(method)) for (const listener of writeListeners) listener(path);
  return parsed.data;
}

/**
 * A failed answer into an ApiError: the API's `{errorcode, error, field}`, else the body's text
 * made safe, else 'Status [code]. Network/Server error.' (the one helper of §8, src/shared/http/safeText).
 */
export function toApiError(status: number, body: string): ApiError {
  const parsed = parseErrorBody(body);
  return new ApiError(
    parsed !== null && parsed.errorcode !== 0 ? parsed.errorcode : API_ERROR_CODES.unreadable,
    safeErrorText(status, body),
    status,
    parsed?.field,
  );
}

export function apiGet<S extends z.ZodType>(
  path: string,
  schema: SchemaSource<S>,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return request('GET', path, schema, undefined, options);
}

export function apiPost<S extends z.ZodType>(
  path: string,
  schema: SchemaSource<S>,
  body: unknown = {},
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return request('POST', path, schema, body, options);
}

export interface UploadOptions extends RequestOptions {
  /** how much of the body has been sent, 0..1, as it goes */
  onProgress?(sent: number): void;
}

/**
 * POSTs a multipart/form-data body (a file with its fields: the media uploads), streamed by the
 * browser from the file rather than read into a data URL. XMLHttpRequest rather than fetch because
 * only it reports upload progress; answers and failures read as every other call's.
 */
export function apiUpload<S extends z.ZodType>(
  path: string,
  schema: S,
  form: FormData,
  options: UploadOptions = {},
): Promise<z.output<S>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = currentAntiforgeryToken();
    if (token !== null) xhr.setRequestHeader(ANTIFORGERY_HEADER, token);
    const { onProgress, signal } = options;
    if (onProgress)
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
    xhr.onload = () => {
      try {
        resolve(readAnswer('POST', path, schema, xhr.status, xhr.responseText));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    // the server may answer a refused upload before it has all of it and close the connection
    xhr.onerror = () =>
      reject(
        new ApiError(API_ERROR_CODES.network, 'Internet Connection lost or server is not responding!', 0),
      );
    xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    if (signal) {
      if (signal.aborted) return xhr.abort();
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

/**
 * An upload's form: the text fields in order, then the file in the part named `file` (the server
 * checks the fields before it reads the file, so they must come first).
 */
export function fileForm(fields: Record<string, string | number | undefined>, file: File): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) form.append(name, String(value));
  form.append('file', file, file.name);
  return form;
}
