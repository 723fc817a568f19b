/**
 * `npm run test:durability` (issue 16): the real server as a child process on SQLite and on
 * PostgreSQL, 1,000 concurrent writes through the HTTP API (point creates, then an edit of each
 * created point), SIGKILL in the middle, a restart on the same store, and a count of acknowledged
 * writes that are missing. Prints `lost=0` and `restart healthy` per engine; exits 1 otherwise.
 *
 * PostgreSQL: a fresh database on TEST_DATABASE_URL's server (set by .ci/run when one answers;
 * else the local default), dropped afterwards. When none answers and TEST_DATABASE_URL is unset,
 * the PostgreSQL half is skipped with a line saying so, as the store contract suite does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WRITES = 1_000;
/** Half the writes create points, the other half edit them (each created point once). */
const CREATES = WRITES / 2;
const IN_FLIGHT = 100;
/** The server is killed once this many writes have been acknowledged. */
const KILL_AFTER_ACKS = 500;
/** Points one account may add in ten minutes (features/points/routes.ts CREATE_LIMIT is 60). */
const CREATES_PER_ACCOUNT = 50;
/** The whole run stops by itself after this long. */
const DEADLINE_MS = 180_000;
const PASSWORD = 'durability-password-1';
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

type Engine = 'sqlite' | 'postgres';

interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<void>;
}

const children = new Set<ChildProcess>();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The server as `npm start` runs it (src/server/main.ts through tsx), without building the web app. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: 'none',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  void exited.then(() => children.delete(child));
  const server = { child, base: `http://127.0.0.1:${port}`, output: () => output, exited };
  const started = Date.now();
  while (!(await healthy(server))) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    if (Date.now() - started > 60_000)
      throw new Error(`the server did not answer /healthz in 60 s:\n${output}`);
    await sleep(100);
  }
  return server;
}

async function healthy(server: Server): Promise<boolean> {
  try {
    const res = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return res.status === 200 && ((await res.json()) as { status?: string }).status === 'ok';
  } catch {
    return false;
  }
}

async function post(server: Server, url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${server.base}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `appnettoken ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Ack {
  kind: 'create' | 'edit';
  id: string;
  title: string;
  token: string;
}

/** One engine's run: accounts, the writes, the kill, the restart, the count. True when nothing was lost. */
async function runEngine(engine: Engine, env: Record<string, string>): Promise<boolean> {
  const started = Date.now();
  let server = await startServer(env);
  const accounts = Math.ceil(CREATES / CREATES_PER_ACCOUNT);
  const tokens: string[] = [];
  for (let n = 0; n < accounts; n++) {
    const username = `durable${n}`;
    const res = await post(server, '/v1/account/register', {
      username,
      email: `${username}@example.com`,
      fullname: `Durable ${n}`,
      password: PASSWORD,
    });
    if (res.status !== 201) throw new Error(`registering ${username}: ${res.status} ${await res.text()}`);
    tokens.push(((await res.json()) as { token: string }).token);
  }

  // the work: every create, and the edit of each point once its create is acknowledged
  const acks: Ack[] = [];
  const queue: (() => Promise<Ack | null>)[] = [];
  let killed = false;
  let refused = 0;
  let unanswered = 0;
  const create = (n: number) => async (): Promise<Ack | null> => {
    const token = tokens[n % accounts]!;
    const title = `Durable ${engine} ${n}`;
    const res = await post(
      server,
      '/v1/xpoint/create',
      {
        supertype: 'business',
        type: 'bakery',
        title,
        lat: 10 + Math.floor(n / 50) * 0.5,
        lon: 20 + (n % 50) * 0.01,
        confirmNotDuplicate: true,
      },
      token,
    );
    if (res.status !== 201) {
      refused += 1;
      return null;
    }
    const { id } = (await res.json()) as { id: string };
    queue.push(edit(id, n, token));
    return { kind: 'create', id, title, token };
  };
  /** edits sent but never acknowledged: the point may hold either title. */
  const editsSent = new Map<string, string>();
  const edit = (id: string, n: number, token: string) => async (): Promise<Ack | null> => {
    const title = `Edited ${engine} ${n}`;
    editsSent.set(id, title);
    const res = await post(server, '/v1/xpoint/update', { id, version: 1, title }, token);
    if (res.status !== 200) {
      refused += 1;
      return null;
    }
    await res.arrayBuffer();
    return { kind: 'edit', id, title, token };
  };
  for (let n = 0; n < CREATES; n++) queue.push(create(n));

  const writesStarted = Date.now();
  let inFlight = 0;
  const worker = async () => {
    while (!killed) {
      const next = queue.shift();
      if (!next) {
        if (inFlight === 0) return;
        await sleep(2);
        continue;
      }
      inFlight += 1;
      try {
        const ack = await next();
        // a 2xx that arrived is an acknowledgement, even one that crossed the kill
        if (ack) acks.push(ack);
        if (acks.length >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      } catch {
        unanswered += 1; // in flight when the process died: never acknowledged, so nothing is owed
      } finally {
        inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await server.exited;
  const killMs = Date.now() - writesStarted;

  server = await startServer(env);
  const restartHealthy = await healthy(server);
  const missing: string[] = [];
  // a point whose edit was acknowledged must show the edit; one only created, its title (or the
  // title of an edit that was sent but not acknowledged: it may have been written before the kill)
  const expected = new Map<string, Ack>();
  for (const ack of acks) if (ack.kind === 'edit' || !expected.has(ack.id)) expected.set(ack.id, ack);
  const checks = [...expected.values()];
  for (let i = 0; i < checks.length; i += IN_FLIGHT)
    await Promise.all(
      checks.slice(i, i + IN_FLIGHT).map(async (ack) => {
        const res = await fetch(`${server.base}/v1/xpoint/${ack.id}/edit`, {
          headers: { authorization: `appnettoken ${ack.token}` },
        });
        const body = res.status === 200 ? ((await res.json()) as { title?: string }) : null;
        const unacknowledgedEdit = ack.kind === 'create' ? editsSent.get(ack.id) : undefined;
        if (
          body?.title !== ack.title &&
          (unacknowledgedEdit === undefined || body?.title !== unacknowledgedEdit)
        )
          missing.push(`${ack.kind} ${ack.id}: ${res.status} ${body?.title ?? ''}`);
      }),
    );
  server.child.kill('SIGTERM');
  await server.exited;

  const creates = acks.filter((ack) => ack.kind === 'create').length;
  console.log(
    `durability ${engine}: ${acks.length} writes acknowledged (${creates} creates, ${acks.length - creates} edits) ` +
      `in ${(killMs / 1000).toFixed(1)} s with ${IN_FLIGHT} in flight, then SIGKILL; ${unanswered} in flight got no answer, ${refused} refused`,
  );
  console.log(
    `durability ${engine}: lost=${missing.length}, restart ${restartHealthy ? 'healthy' : 'NOT healthy'} (/healthz), ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s in all`,
  );
  for (const line of missing.slice(0, 10)) console.log(`  missing: ${line}`);
  return missing.length === 0 && restartHealthy && acks.length >= KILL_AFTER_ACKS && refused === 0;
}

/** A fresh database on the PostgreSQL server of `url`, and how to drop it; null when none answers. */
async function temporaryDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `xpoint_durability_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = new URL(url);
  database.pathname = `/${name}`;
  return {
    url: database.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function main(): Promise<number> {
  let ok = true;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-durability-'));
  try {
    ok = (await runEngine('sqlite', { DATA_DIR: path.join(dataDir, 'sqlite') })) && ok;
    const pgUrl = process.env['TEST_DATABASE_URL'] ?? DEFAULT_PG_URL;
    const database = await temporaryDatabase(pgUrl);
    if (!database) {
      if (process.env['TEST_DATABASE_URL']) throw new Error(`PostgreSQL does not answer at ${pgUrl}`);
      console.log(`durability postgres: skipped, no PostgreSQL answers at ${pgUrl}`);
    } else {
      try {
        ok =
          (await runEngine('postgres', {
            DATA_DIR: path.join(dataDir, 'postgres'),
            DATABASE_URL: database.url,
          })) && ok;
      } finally {
        await database.drop();
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return ok ? 0 : 1;
}

const deadline = setTimeout(() => {
  console.error(`durability: stopped after ${DEADLINE_MS / 1000} s`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

main().then(
  (code) => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
  },
  (error: unknown) => {
    console.error(`durability: ${error instanceof Error ? error.message : String(error)}`);
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  },
);
