import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signIn } from '../support/accounts';
import { openTestApp, type TestApp } from '../support/app';

/**
 * The posts' per-person limits with REDIS_URL set (issue 17): two apps on one store and the local
 * Redis at 127.0.0.1:6379 (two server processes' worth, a unique key prefix per run) count one
 * person's edits together, 120 an hour, whichever process each edit reaches.
 */
const REDIS = { host: '127.0.0.1', port: 6379 };
const prefix = `xptest:rl:${randomUUID()}:`;
const PASSWORD = 'posts-limits-password-1';
const apps: TestApp[] = [];

afterAll(async () => {
  for (const t of apps.splice(0).reverse()) await t.close();
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('post limits shared through Redis', () => {
  it("counts a person's edits on two processes as one: the 121st in the hour is refused on either", async () => {
    const redisUrl = `redis://${REDIS.host}:${REDIS.port}`;
    const one = await openTestApp({ redisUrl, limitsPrefix: prefix });
    apps.push(one);
    const two = await openTestApp({ redisUrl, limitsPrefix: prefix, store: one.store });
    apps.push(two);
    expect((await registerUser(one, 'sharer', PASSWORD)).statusCode).toBe(201);
    const on = [
      bearer((await signIn(one, 'sharer', PASSWORD)).token),
      bearer((await signIn(two, 'sharer', PASSWORD)).token),
    ];
    const id = randomUUID();
    const fields = { id, title: 't', description: 'd', type: 'deal', resultMode: 'ReturnJson' };
    const created = await one.app.inject({
      method: 'POST',
      url: '/myposts/save',
      headers: on[0],
      payload: fields,
    });
    expect(created.statusCode, created.body).toBe(201);
    let version = 1;
    for (let i = 0; i < 120; i++) {
      const app = i % 2 === 0 ? one : two;
      const res = await app.app.inject({
        method: 'POST',
        url: '/myposts/save',
        headers: on[i % 2]!,
        payload: { ...fields, version },
      });
      expect(res.statusCode, res.body).toBe(200);
      version += 1;
    }
    for (const [index, app] of [one, two].entries()) {
      const refused = await app.app.inject({
        method: 'POST',
        url: '/myposts/save',
        headers: on[index]!,
        payload: { ...fields, version },
      });
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json()).toMatchObject({ errorcode: 1020 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    }
    const redis = new Redis(REDIS);
    const keys = await redis.keys(`${prefix}*posts-edit*`);
    redis.disconnect();
    expect(keys).toHaveLength(1);
  });
});
