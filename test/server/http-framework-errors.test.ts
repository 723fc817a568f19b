import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';

/**
 * Every answer the framework gives before a route runs is the catalogue's `{errorcode, error}` with a
 * fitting status (issue 16, finding 5): requests written byte by byte on a socket, for what inject()
 * cannot express (a request line Node refuses, a 16 KB address, headers past Node's limit).
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await openTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as it is and reads the answer until the server closes or 3 s pass. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({ status, headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

const CRLF = '\r\n';
function request(method: string, target: string, headers: string[] = [], body = ''): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers];
  if (body || ['POST', 'PUT', 'PATCH'].includes(method))
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return lines.join(CRLF) + CRLF + CRLF + body;
}
const json = ['Content-Type: application/json'];

const CASES: { name: string; send: string; status: number; errorcode: number; error?: RegExp }[] = [
  {
    name: 'invalid JSON',
    send: request('POST', '/v1/account/login', json, '{"username":'),
    status: 400,
    errorcode: 1002,
    error: /not valid JSON/,
  },
  {
    name: 'an empty body sent as JSON',
    send: request('POST', '/v1/account/login', json, ''),
    status: 400,
    errorcode: 1002,
    error: /empty/,
  },
  {
    name: 'an unsupported media type',
    send: request('POST', '/v1/account/login', ['Content-Type: application/xml'], '<a/>'),
    status: 415,
    errorcode: 1005,
  },
  {
    name: 'a 16 KB address under /v1',
    send: request('GET', `/v1/webonly/xpointdetails/${'a'.repeat(16 * 1024)}`),
    status: 414,
    errorcode: 1031,
  },
  {
    name: 'a 16 KB address of a page',
    send: request('GET', `/${'b'.repeat(16 * 1024)}`),
    status: 414,
    errorcode: 1031,
  },
  {
    name: 'headers past 16 KB',
    send: request('GET', '/healthz', [`Cookie: x=${'c'.repeat(17 * 1024)}`]),
    status: 431,
    errorcode: 1032,
  },
  {
    name: 'a 10 KB address (under the header limit, over the address limit)',
    send: request('GET', `/v1/users/${'e'.repeat(10 * 1024)}`),
    status: 414,
    errorcode: 1031,
  },
  {
    name: 'a 4 KB file name under /media (past the file system limit of 255)',
    send: request('GET', `/media/${'d'.repeat(4 * 1024)}.png`),
    status: 404,
    errorcode: 1001,
  },
  {
    name: 'a 4 KB file name of an asset',
    send: request('GET', `/assets/${'e'.repeat(4 * 1024)}.js`),
    status: 404,
    errorcode: 1000,
  },
  {
    name: 'a 4 KB route parameter (past the router limit of 2,048)',
    send: request('GET', `/v1/webonly/xpointdetails/${'f'.repeat(4 * 1024)}`),
    status: 404,
    errorcode: 1001,
  },
  {
    name: 'a malformed request line',
    send: `GARBAGE${CRLF}${CRLF}`,
    status: 400,
    errorcode: 1002,
  },
  {
    name: 'an HTTP/1.1 request without Host',
    send: `GET /healthz HTTP/1.1${CRLF}Connection: close${CRLF}${CRLF}`,
    status: 400,
    errorcode: 1002,
    error: /Host/,
  },
  {
    name: 'an unknown HTTP version',
    send: `GET /healthz HTTP/7.1${CRLF}Host: x${CRLF}${CRLF}`,
    status: 400,
    errorcode: 1002,
  },
  {
    name: 'an invalid header',
    send: `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}Bad Header: y${CRLF}${CRLF}`,
    status: 400,
    errorcode: 1002,
  },
  {
    name: 'both Content-Length and chunked',
    send: `POST /v1/account/login HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: 2${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}0${CRLF}${CRLF}`,
    status: 400,
    errorcode: 1002,
  },
  {
    name: 'an unknown /v1 route',
    send: request('GET', '/v1/nothing/here'),
    status: 404,
    errorcode: 1001,
  },
  {
    name: 'GET on a route that only takes POST',
    send: request('GET', '/v1/xpoint/create'),
    status: 405,
    errorcode: 1006,
    error: /GET is not allowed on \/v1\/xpoint\/create/,
  },
  {
    name: 'DELETE on a route that only takes GET',
    send: request('DELETE', '/v1/account/me'),
    status: 405,
    errorcode: 1006,
  },
  {
    name: 'OPTIONS on an API route',
    send: request('OPTIONS', '/v1/xpoint/create'),
    status: 405,
    errorcode: 1006,
  },
  {
    name: 'an unknown method',
    send: request('FROB', '/v1/xpoint/create'),
    status: 400,
    errorcode: 1002,
  },
];

describe('framework errors in the catalogue shape', () => {
  it.each(CASES)('$name: $status $errorcode', async ({ send, status, errorcode, error }) => {
    const answer = await raw(send);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'errorcode']);
    expect(body['errorcode']).toBe(errorcode);
    expect(typeof body['error']).toBe('string');
    if (error) expect(body['error']).toMatch(error);
  });

  it('names the methods a route takes when it refuses another (Allow)', async () => {
    const answer = await raw(request('GET', '/v1/xpoint/create'));
    expect(answer.headers['allow']).toBe('POST');
  });

  it('HEAD of a POST-only route answers 405 with no body', async () => {
    const answer = await raw(request('HEAD', '/v1/xpoint/create'));
    expect(answer.status).toBe(405);
    expect(answer.body).toBe('');
  });
});
