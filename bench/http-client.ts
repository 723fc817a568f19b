import { Worker } from 'node:worker_threads';

/**
 * The benches' HTTP client (search, tiles, feeds). It runs in a worker thread, as a browser or a map
 * runs apart from the server: on the server's own thread it would take turns with the server, and its
 * parsing would count as the server's time. One request at a time over a keep-alive connection to
 * 127.0.0.1, each timed from send to the last byte on the client's clock.
 */
const CLIENT_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
parentPort.on('message', ({ id, port, method, path, body, headers, keepBody }) => {
  const started = performance.now();
  const sent = body === undefined ? headers : { 'content-length': Buffer.byteLength(body), ...headers };
  const request = http.request({ host: '127.0.0.1', port, path, method, agent, headers: sent }, (response) => {
    const chunks = [];
    let bytes = 0;
    response.on('data', (chunk) => {
      bytes += chunk.length;
      if (keepBody) chunks.push(chunk);
    });
    response.on('end', () => {
      const ms = performance.now() - started;
      parentPort.postMessage({ id, ms, status: response.statusCode, bytes,
        body: keepBody ? Buffer.concat(chunks).toString('utf8') : '' });
    });
  });
  request.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
  request.end(body);
});
`;

export interface Answer {
  status: number;
  /** the body as text; '' for a GET, whose bytes are only counted. */
  body: string;
  bytes: number;
  /** from send to the last byte, on the client's clock. */
  ms: number;
}

export class HttpClient {
  private readonly worker = new Worker(CLIENT_SOURCE, { eval: true });
  private readonly waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(private readonly port: number) {
    this.worker.on('message', (message: Answer & { id: number; error?: string }) => {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message);
    });
  }

  /** A GET whose body is counted, not kept (a tile). */
  get(path: string): Promise<Answer> {
    return this.send({ method: 'GET', path, headers: {}, keepBody: false });
  }

  /** A POST of `body` with `headers`; the answer's body is kept. */
  post(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
    return this.send({ method: 'POST', path, body, headers, keepBody: true });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }

  private send(request: {
    method: string;
    path: string;
    body?: string;
    headers: Record<string, string>;
    keepBody: boolean;
  }): Promise<Answer> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, port: this.port, ...request });
    });
  }
}
