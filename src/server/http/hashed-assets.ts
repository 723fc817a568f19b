import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The web build's hashed assets (dist/web/assets), sent from memory: each file, with the .br and .gz
 * copies the build writes beside it, is read once on its first request and kept. A page of the app
 * asks for some sixty of them over the browser's six connections, which its map's tiles share:
 * @fastify/static spent 3.2-4.5 ms on each (a stat per encoding, a stream), four times what a route
 * that answers at once costs (0.8 ms, `/healthz`), measured in the same run. A name the build did
 * not write, or a kind of file not listed here, goes to @fastify/static as before (its 404 included).
 */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

async function readOptional(file: string): Promise<Buffer | null> {
  try {
    return await fs.promises.readFile(file);
  } catch {
    return null;
  }
}

/** Which stored copy to send: brotli, then gzip, as the request accepts them (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | undefined, asset: Asset): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.trim().split(';');
    const refused = parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
    if (name !== '' && !refused) accepted.add(name.trim());
  }
  if (asset.br !== null && accepted.has('br')) return 'br';
  if (asset.gzip !== null && accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Registers `GET /assets/:file` (and its HEAD) for the files of `assetsDir` present at start, with
 * `cacheControl`. Needs @fastify/static registered on the web root (`reply.sendFile`).
 */
export function registerHashedAssets(app: FastifyInstance, assetsDir: string, cacheControl: string): void {
  const names = new Set(
    fs.existsSync(assetsDir)
      ? fs.readdirSync(assetsDir).filter((name) => CONTENT_TYPES[path.extname(name)] !== undefined)
      : [],
  );
  const cache = new Map<string, Promise<Asset | null>>();

  const load = (name: string): Promise<Asset | null> => {
    let asset = cache.get(name);
    if (asset === undefined) {
      const file = path.join(assetsDir, name);
      asset = Promise.all([readOptional(file), readOptional(`${file}.br`), readOptional(`${file}.gz`)]).then(
        ([identity, br, gzip]) =>
          identity === null
            ? null
            : { type: CONTENT_TYPES[path.extname(name)] as string, identity, br, gzip },
      );
      cache.set(name, asset);
      // a file that went away is looked for again next time
      void asset.then((loaded) => loaded === null && cache.delete(name));
    }
    return asset;
  };

  app.get<{ Params: { file: string } }>(
    '/assets/:file',
    async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
      const name = request.params.file;
      const asset = names.has(name) ? await load(name) : null;
      if (asset === null) return reply.sendFile(`assets/${name}`);
      const encoding = pickEncoding(request.headers['accept-encoding'], asset);
      const body = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity;
      reply
        .header('Content-Type', asset.type)
        .header('Cache-Control', cacheControl)
        .header('Vary', 'Accept-Encoding');
      if (encoding !== null) reply.header('Content-Encoding', encoding);
      return reply.send(body);
    },
  );
}
