import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { NewPoint } from '../../src/server/store/schema';
import { HealthStatus } from '../../src/shared/domain/enums';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { formBody } from '../support/multipart';

/**
 * Health photos (issue 21 item 10; map-and-search §3 healthdata, §4 "a verified status shows health
 * photos", §7 /v1/webonly/xpointdetails/healthphoto): the owner uploads them through POST
 * /v1/xpoint/media with slot `health` and removes them again; the point's details and the
 * healthphoto call show them only while the point is verified. Bad input (a visitor, another user's
 * point, a non-image, a position past 20) is refused and changes nothing. Both engines.
 */
const PASSWORD = 'health-password-1';
type Headers = Record<string, string>;

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

describe.each(TEST_DIALECTS)('health photos (%s)', (dialect) => {
  let t: TestApp;
  const headers = {} as Record<'owner' | 'stranger' | 'visitor', Headers>;
  let oliviaId = '';
  let made = 0;

  const post = (url: string, payload: unknown, as: Headers): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: as });
  const upload = async (fields: Record<string, string | number>, file: Buffer | null, as: Headers) => {
    const form = await formBody(
      fields,
      file === null ? undefined : { name: 'papers.png', type: 'image/png', data: file },
    );
    return t.app.inject({
      method: 'POST',
      url: '/v1/xpoint/media',
      headers: { ...as, ...form.headers },
      payload: form.payload,
    });
  };
  const seedPoint = async (fields: Partial<NewPoint> = {}): Promise<string> => {
    made += 1;
    const id = `hp_${made}`;
    await t.store.db
      .insertInto('points')
      .values(
        newPoint({
          id,
          supertype: 'business',
          type: 'cafe',
          title: `Health café ${made}`,
          lat: 40 + made * 0.01,
          lon: -74,
          owner_userid: oliviaId,
          health_status: HealthStatus.verified,
          ...fields,
        }),
      )
      .execute();
    return id;
  };
  const rows = (id: string) =>
    t.store.db
      .selectFrom('point_health_photos')
      .select(['position', 'url'])
      .where('point_id', '=', id)
      .orderBy('position')
      .execute();
  const expectError = (res: LightMyRequestResponse, status: number, errorcode: number, error?: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ errorcode: number; error: string }>();
    expect(body.errorcode, res.body).toBe(errorcode);
    if (error) expect(body.error).toMatch(error);
  };
  const shown = async (id: string) =>
    (await post('/v1/webonly/xpointdetails/healthphoto', { id }, headers.visitor)).json<{
      photos: Record<string, { url: string }>;
    }>().photos;

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'uma'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    const olivia = await signIn(t, 'olivia', PASSWORD);
    const uma = await signIn(t, 'uma', PASSWORD);
    oliviaId = olivia.id;
    headers.owner = bearer(olivia.token);
    headers.stranger = bearer(uma.token);
    const visitor = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
    const visitorCookie = visitor.cookies.find((c) => c.name === 'xp_af');
    headers.visitor = {
      cookie: `xp_af=${visitorCookie?.value}`,
      requestverificationtoken: visitor.json<{ token: string }>().token,
    };
  });
  afterAll(() => t?.close());

  it('lets the owner add health photos at the next free places; a verified point shows them', async () => {
    const id = await seedPoint();
    const first = await upload({ id, version: 1, slot: 'health' }, await png(2400, 1200), headers.owner);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      id,
      slot: 'health',
      position: 1,
      url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp$/),
      version: 2,
    });
    // resized into 2000 px, as WebP
    const stored = await t.app.inject({ method: 'GET', url: first.json().url });
    expect(stored.statusCode).toBe(200);
    const meta = await sharp(stored.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 2000, 1000]);

    // JSON (a data URL) works too, at the next free place
    const second = await post(
      '/v1/xpoint/media',
      {
        id,
        version: 2,
        slot: 'health',
        data: `data:image/png;base64,${(await png(300, 400)).toString('base64')}`,
      },
      headers.owner,
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ slot: 'health', position: 2, version: 3 });

    expect((await rows(id)).map((r) => r.position)).toEqual([1, 2]);
    const photos = await shown(id);
    expect(photos).toEqual({ '1': { url: first.json().url }, '2': { url: second.json().url } });
    // the point's details carry them too, and the edit form lists them with the status
    const details = await t.app.inject({ method: 'GET', url: `/v1/webonly/xpointdetails/${id}` });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json().healthdata.photos.map((p: { url: string }) => p.url)).toEqual([
      first.json().url,
      second.json().url,
    ]);
    const edit = await t.app.inject({ method: 'GET', url: `/v1/xpoint/${id}/edit`, headers: headers.owner });
    expect(edit.json()).toMatchObject({
      health_status: HealthStatus.verified,
      health_photos: [
        { position: 1, url: first.json().url },
        { position: 2, url: second.json().url },
      ],
    });
  });

  it('lets the owner remove one; the others keep their places', async () => {
    const id = await seedPoint();
    const image = await png(200, 200);
    let version = 1;
    for (let n = 1; n <= 3; n++) {
      const res = await upload({ id, version, slot: 'health' }, await png(200 + n, 200), headers.owner);
      expect(res.statusCode, res.body).toBe(200);
      version = res.json().version;
    }
    // a removal needs a position
    expectError(
      await post('/v1/xpoint/media', { id, version, slot: 'health', data: null }, headers.owner),
      400,
      1003,
      /^position: is required to remove a health photo\.$/,
    );
    const removed = await post(
      '/v1/xpoint/media',
      { id, version, slot: 'health', position: 2, data: null },
      headers.owner,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ slot: 'health', position: 2, url: null });
    expect((await rows(id)).map((r) => r.position)).toEqual([1, 3]);
    expect(Object.keys(await shown(id))).toEqual(['1', '3']);
    // the free place is taken again first
    const again = await upload({ id, version: removed.json().version, slot: 'health' }, image, headers.owner);
    expect(again.json()).toMatchObject({ position: 2 });
  });

  it("keeps an unverified point's photos for its owner, showing none to others", async () => {
    const id = await seedPoint({ health_status: HealthStatus.verificationpending });
    const res = await upload({ id, version: 1, slot: 'health' }, await png(100, 100), headers.owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows(id)).toHaveLength(1);
    expect(await shown(id)).toEqual({});
    const edit = await t.app.inject({ method: 'GET', url: `/v1/xpoint/${id}/edit`, headers: headers.owner });
    expect(edit.json().health_photos).toHaveLength(1);
  });

  it('refuses a visitor, another user, a non-image and a place past 20, changing nothing', async () => {
    const id = await seedPoint();
    const image = await png(50, 50);
    expectError(await upload({ id, version: 1, slot: 'health' }, image, headers.visitor), 401, 1010);
    expectError(await upload({ id, version: 1, slot: 'health' }, image, headers.stranger), 403, 1011);
    expectError(
      await post(
        '/v1/xpoint/media',
        { id, version: 1, slot: 'health', position: 1, data: null },
        headers.stranger,
      ),
      403,
      1011,
    );
    const text = Buffer.from('these are not my health papers, only text named .png\n');
    expectError(await upload({ id, version: 1, slot: 'health' }, text, headers.owner), 400, 2009);
    expectError(
      await post(
        '/v1/xpoint/media',
        { id, version: 1, slot: 'health', data: `data:image/png;base64,${text.toString('base64')}` },
        headers.owner,
      ),
      400,
      2009,
    );
    expectError(
      await upload({ id, version: 1, slot: 'health', position: 21 }, image, headers.owner),
      400,
      1003,
      /^position: must be between 1 and 20\.$/,
    );
    expectError(await upload({ id, version: 1, slot: 'health' }, null, headers.owner), 400, 1003);
    expect(await rows(id)).toEqual([]);
    const row = await t.store.db
      .selectFrom('points')
      .select('version')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(row.version)).toBe(1);
  });

  it('takes at most 20', async () => {
    const id = await seedPoint();
    await t.store.db
      .insertInto('point_health_photos')
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          point_id: id,
          position: i + 1,
          url: `/media/${String(i).padStart(64, '0')}.webp`,
          verified_at: null,
        })),
      )
      .execute();
    expectError(
      await upload({ id, version: 1, slot: 'health' }, await png(40, 40), headers.owner),
      400,
      7032,
      /at most 20 health photos/,
    );
  });
});
