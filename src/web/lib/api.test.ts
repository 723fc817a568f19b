import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiGet, apiPost, fieldError, onApiWrite, setAntiforgeryToken } from './api';
import { lazySchema } from './schemas';

/** The client runs in the browser; here `fetch` and the page's meta tag are stand-ins. */
function stubPage(metaToken: string | null) {
  const meta = metaToken === null ? null : { content: metaToken };
  vi.stubGlobal('document', { querySelector: () => meta });
}

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(body === undefined ? '' : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const okSchema = z.object({ ok: z.literal(true) });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('reads an answer with a schema it loads while the call is under way (issue 23)', async () => {
    stubPage(null);
    answer(200, { ok: true });
    await expect(apiGet('/v1/x', lazySchema('okResponseSchema'))).resolves.toEqual({ ok: true });
    answer(200, { ok: false });
    await expect(apiGet('/v1/x', lazySchema('okResponseSchema'))).rejects.toMatchObject({
      message: 'Server returned EMPTY/Invalid response!',
    });
  });

  it('fails as the network does when the schema cannot be loaded', async () => {
    stubPage(null);
    answer(200, { ok: true });
    const offline = () => Promise.reject(new Error('Failed to fetch dynamically imported module'));
    const failed = await apiGet('/v1/x', offline).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ message: 'Internet Connection lost or server is not responding!' });
  });

  it('sends the page token in RequestVerificationToken on a POST, as JSON', async () => {
    stubPage('page-token');
    const fetchMock = answer(200, { ok: true });
    await expect(apiPost('/v1/account/logout', okSchema, { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/account/logout');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toMatchObject({
      'Content-Type': 'application/json',
      RequestVerificationToken: 'page-token',
    });
  });

  it('sends no anti-forgery token on a GET', async () => {
    stubPage('page-token');
    const fetchMock = answer(200, { ok: true });
    await apiGet('/v1/x', okSchema);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).not.toHaveProperty('RequestVerificationToken');
  });

  it('uses a token handed over after sign-in instead of the page one', async () => {
    stubPage('page-token');
    setAntiforgeryToken('session-token');
    const fetchMock = answer(200, { ok: true });
    await apiPost('/v1/x', okSchema);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({
      RequestVerificationToken: 'session-token',
    });
  });

  it('turns {errorcode, error} into an ApiError with the code, the message and the status', async () => {
    stubPage(null);
    answer(401, { errorcode: 2001, error: 'Wrong username/email or password.' });
    const error = await apiPost('/v1/account/login', okSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 2001, status: 401, message: 'Wrong username/email or password.' });
  });

  it("says 'Status [code]. Network/Server error.' for a failure without the error body", async () => {
    stubPage(null);
    answer(502, undefined);
    await expect(apiGet('/v1/x', okSchema)).rejects.toMatchObject({
      code: -1,
      status: 502,
      message: 'Status [502]. Network/Server error.',
    });
  });

  it("shows a proxy's HTML error page as text, without its markup or scripts", async () => {
    stubPage(null);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('<html><body><h1>Bad gateway</h1><script>steal()</script></body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    await expect(apiGet('/v1/x', okSchema)).rejects.toMatchObject({
      code: -1,
      status: 502,
      message: 'Bad gateway',
    });
  });

  it('refuses an answer that breaks the contract', async () => {
    stubPage(null);
    answer(200, { ok: 'yes' });
    await expect(apiGet('/v1/x', okSchema)).rejects.toMatchObject({
      code: -1,
      message: 'Server returned EMPTY/Invalid response!',
    });
  });

  it('reports a network failure as code 0', async () => {
    stubPage(null);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiGet('/v1/x', okSchema)).rejects.toMatchObject({ code: 0, status: 0 });
  });
});

describe('a refusal that names a field', () => {
  it('carries the field, and the message without its leading field name as the reason', async () => {
    stubPage(null);
    answer(400, { errorcode: 1002, error: 'username: "rita" is already taken.', field: 'username' });
    const error: unknown = await apiPost('/v1/account/register', okSchema).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 1002,
      field: 'username',
      message: 'username: "rita" is already taken.',
    });
    expect(fieldError(error)).toEqual({ field: 'username', reason: '"rita" is already taken.' });
  });

  it('keeps a message that does not start with the field whole, and names no field without one', () => {
    expect(fieldError(new ApiError(2008, 'Invalid image size. Max allowed 10 MB', 400, 'data'))).toEqual({
      field: 'data',
      reason: 'Invalid image size. Max allowed 10 MB',
    });
    expect(fieldError(new ApiError(1010, 'Wrong username/email or password.', 401))).toBeNull();
    expect(fieldError(new Error('username: looks like a field'))).toBeNull();
  });
});

describe('onApiWrite', () => {
  it('hears a write the server accepted, and neither a read nor a refused write', async () => {
    stubPage('page-token');
    const heard: string[] = [];
    const stop = onApiWrite((path) => heard.push(path));
    answer(200, { ok: true });
    await apiGet('/v1/read', okSchema);
    await apiPost('/v1/written', okSchema);
    // a POST that only reads (the spec's reviews page) is not a write
    await apiPost('/review/reviews', okSchema, { appid: 'x' }, { read: true });
    answer(403, { errorcode: 2003, error: 'refused' });
    await apiPost('/v1/refused', okSchema).catch(() => undefined);
    stop();
    answer(200, { ok: true });
    await apiPost('/v1/after-stop', okSchema);
    expect(heard).toEqual(['/v1/written']);
  });
});
