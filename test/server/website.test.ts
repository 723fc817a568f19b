import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ERRORS, type ErrorName } from '../../src/shared/errors';
import { websiteViewSchema, websiteWriteResponseSchema } from '../../src/shared/website/api';
import { WEBSITE_FIELD_MAX_CHARS } from '../../src/shared/website';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { bearer, createAdmin, freshIp, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { formBody } from '../support/multipart';

/**
 * The owner's website of issue 20 over HTTP on a real store of each dialect: the four calls of social
 * §7 and the reorder, by the owner, the consultant and an admin with the token in the Authorization
 * header; every bad input the issue names answered with its catalogue error and nothing changed; the
 * site as anyone reads it, filled from the point where the owner wrote nothing; the static folder.
 */
const PASSWORD = 'website-password-1';
type Headers = Record<string, string>;

async function jpeg(color = { r: 30, g: 140, b: 90 }, width = 900, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Copyright: 'secret camera owner' } })
    .toBuffer();
}

describe.each(TEST_DIALECTS)('website over HTTP (%s)', (dialect) => {
  let t: TestApp;
  const as = {} as Record<'olivia' | 'uma' | 'carl' | 'admin' | 'visitor', Headers>;
  const SHOP = 'webShop0001';
  const OTHER = 'webShop0002';
  const HELP = 'webHelp0001';

  const post = (url: string, who: Headers, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...who, 'x-forwarded-for': freshIp() },
      payload: payload as Record<string, unknown>,
    });
  const get = (url: string, who: Headers = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...who, 'x-forwarded-for': freshIp() } });
  const upload = async (
    who: Headers,
    fields: Record<string, string | number>,
    file: { name: string; type: string; data: Buffer } | undefined,
  ) => {
    const form = await formBody(fields, file, 'imgFile');
    return t.app.inject({
      method: 'POST',
      url: '/v1/xpoint/updatewebsitepartpic',
      headers: { ...who, ...form.headers, 'x-forwarded-for': freshIp() },
      payload: form.payload,
    });
  };
  const picture = async (
    who: Headers,
    partidx: number,
    picidx: number,
    color?: { r: number; g: number; b: number },
  ) =>
    upload(
      who,
      { xpointid: SHOP, partidx, picidx },
      { name: 'shop.jpg', type: 'image/jpeg', data: await jpeg(color) },
    );
  const ok = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return websiteWriteResponseSchema.parse(res.json());
  };
  const site = async (id = SHOP) => {
    const res = await get(`/v1/xpoint/${id}/website`);
    expect(res.statusCode, res.body).toBe(200);
    return websiteViewSchema.parse(res.json());
  };
  /** The stored site: rows of both tables and the version, to show that a refusal changed nothing. */
  const snapshot = async () => ({
    parts: await t.store.db
      .selectFrom('website_parts')
      .selectAll()
      .orderBy('point_id')
      .orderBy('part_idx')
      .execute(),
    pics: await t.store.db
      .selectFrom('website_part_pictures')
      .selectAll()
      .orderBy('point_id')
      .orderBy('part_idx')
      .orderBy('pic_idx')
      .execute(),
    versions: await t.store.db.selectFrom('websites').selectAll().orderBy('point_id').execute(),
  });
  const refused = async (
    send: () => Promise<LightMyRequestResponse>,
    status: number,
    name: ErrorName,
    message?: RegExp,
  ) => {
    const before = await snapshot();
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<{ errorcode: number; error: string }>();
    expect(body.errorcode, res.body).toBe(ERRORS[name].code);
    if (message) expect(body.error).toMatch(message);
    expect(await snapshot()).toEqual(before);
    return body;
  };

  beforeAll(async () => {
    t = await openTestApp({ dialect });
    for (const name of ['olivia', 'uma', 'carl'])
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
    await createAdmin(t, PASSWORD);
    const ids: Record<string, string> = {};
    for (const name of ['olivia', 'uma', 'carl', 'admin'] as const) {
      const session = await signIn(t, name, PASSWORD);
      as[name] = bearer(session.token);
      ids[name] = session.id;
    }
    as.visitor = {};
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({
          id: SHOP,
          title: 'Olivia’s bakery',
          owner_userid: ids['olivia'],
          consultant_userid: ids['carl'],
          description: 'Sourdough since 1998.',
          opening_hours: 'Mo-Sa 07:00-18:00',
        }),
        newPoint({ id: OTHER, title: 'Uma’s shop', owner_userid: ids['uma'] }),
        newPoint({ id: HELP, supertype: 'helprequest', type: 'other', owner_userid: ids['olivia'] }),
      ])
      .execute();
    await t.store.db
      .insertInto('reviews')
      .values([
        {
          id: 'rv1',
          point_id: SHOP,
          user_id: ids['uma']!,
          stars: 5,
          text: 'Best bread in town',
          created_at: 1,
          updated_at: 1,
        },
        {
          id: 'rv2',
          point_id: SHOP,
          user_id: ids['carl']!,
          stars: 2,
          text: 'Queue too long',
          created_at: 2,
          updated_at: 2,
        },
      ])
      .execute();
  });
  afterAll(() => t?.close());

  it('shows a site before anyone edits it: parts 1-5 on and filled from the point, part 6 off', async () => {
    const view = await site();
    expect(view.version).toBe(0);
    expect(view.editable).toBe(false);
    expect(view.parts.map((p) => p.enabled)).toEqual([true, true, true, true, true, false]);
    expect(view.auto.description).toBe('Sourdough since 1998.');
    expect(view.auto.hours).toBe('Mo-Sa 07:00-18:00');
    expect(view.auto.reviews[0]).toMatchObject({ stars: 5, text: 'Best bread in town' });
    // the owner reading it is offered the editor
    const own = await get(`/v1/xpoint/${SHOP}/website`, as.olivia);
    expect(own.json<{ editable: boolean }>().editable).toBe(true);
  });

  it('switches a section, changes only the fields sent, and bumps the version each time', async () => {
    const on = ok(
      await post('/v1/xpoint/updatewebsitesection', as.olivia, {
        xpointid: SHOP,
        part_idx: 6,
        enabled: true,
      }),
    );
    expect(on).toMatchObject({ status: 'success', xpointid: SHOP, version: 1 });
    expect(on.part.enabled).toBe(true);
    const parts = ok(
      await post('/v1/xpoint/updatewebsiteparts', as.olivia, {
        xpointid: SHOP,
        part_idx: 6,
        version: 1,
        fields: [
          { fieldname: 'title', fieldval: 'Our ovens' },
          { fieldname: 'line1', fieldval: 'Wood fired  ' },
          { fieldname: 'line2', fieldval: 'Open on Sundays' },
        ],
      }),
    );
    expect(parts.version).toBe(2);
    expect(parts.part.fields).toMatchObject({
      title: 'Our ovens',
      line1: 'Wood fired',
      line2: 'Open on Sundays',
      line3: null,
    });
    // a later change of one field leaves the others as they were
    const again = ok(
      await post('/v1/xpoint/updatewebsiteparts', as.olivia, {
        xpointid: SHOP,
        part_idx: 6,
        fields: [{ fieldname: 'line2', fieldval: '' }],
      }),
    );
    expect(again.part.fields).toMatchObject({ title: 'Our ovens', line1: 'Wood fired', line2: null });
    // the consultant and an admin control the point too (the permissions table's 'update')
    ok(
      await post('/v1/xpoint/updatewebsitesection', as.carl, { xpointid: SHOP, part_idx: 5, enabled: 'off' }),
    );
    ok(await post('/v1/xpoint/updatewebsitesection', as.admin, { xpointid: SHOP, part_idx: 5, enabled: 1 }));
    expect((await site()).version).toBe(5);
  });

  it('stores pictures through the image pipeline (EXIF stripped, WebP sizes and a JPEG), deletes and reorders them', async () => {
    const first = ok(await picture(as.olivia, 6, 1, { r: 200, g: 20, b: 20 }));
    expect(first.part.pictures).toHaveLength(1);
    const pic = first.part.pictures[0]!;
    expect(pic.url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    expect(pic.small).toMatch(/\.webp$/);
    expect(pic.fallback).toMatch(/\.jpg$/);
    const stored = fs.readFileSync(path.join(t.config.dataDir, 'media', pic.fallback!.split('/').pop()!));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    ok(await picture(as.olivia, 6, 2, { r: 20, g: 200, b: 20 }));
    const third = ok(await picture(as.olivia, 6, 3, { r: 20, g: 20, b: 200 }));
    const urls = third.part.pictures.map((p) => p.url);
    expect(third.part.pictures.map((p) => p.pic_idx)).toEqual([1, 2, 3]);

    const reordered = ok(
      await post('/v1/xpoint/reorderwebsitepartpics', as.olivia, {
        xpointid: SHOP,
        part_idx: 6,
        order: [3, 1, 2],
      }),
    );
    expect(reordered.part.pictures.map((p) => p.url)).toEqual([urls[2], urls[0], urls[1]]);

    const deleted = ok(
      await post('/v1/xpoint/deletewebsitepartpic', as.olivia, { xpointid: SHOP, part_idx: 6, pic_idx: 2 }),
    );
    expect(deleted.part.pictures.map((p) => p.url)).toEqual([urls[2], urls[1]]);
  });

  it('refuses each bad input with its own error and changes nothing', async () => {
    const version = (await site()).version;
    const fields = (list: unknown) =>
      post('/v1/xpoint/updatewebsiteparts', as.olivia, { xpointid: SHOP, part_idx: 1, fields: list });
    await refused(
      () => fields([{ fieldname: 'line11', fieldval: 'x' }]),
      400,
      'websiteFieldUnknown',
      /line11/,
    );
    await refused(
      () =>
        fields([
          { fieldname: 'title', fieldval: 'a' },
          { fieldname: 'title', fieldval: 'b' },
        ]),
      400,
      'websiteFieldTwice',
    );
    const body = await refused(
      () => fields([{ fieldname: 'line3', fieldval: 'x'.repeat(WEBSITE_FIELD_MAX_CHARS.line3 + 1) }]),
      400,
      'websiteFieldTooLong',
      /Max length for this field has been exceeded/,
    );
    expect(body).toMatchObject({ field: 'line3' });
    await refused(() => fields([]), 400, 'websiteFieldsEmpty');
    for (const picidx of [0, 11])
      await refused(
        async () =>
          upload(
            as.olivia,
            { xpointid: SHOP, partidx: 6, picidx },
            { name: 'a.jpg', type: 'image/jpeg', data: await jpeg() },
          ),
        400,
        'websitePictureIndexInvalid',
      );
    await refused(
      () => post('/v1/xpoint/deletewebsitepartpic', as.olivia, { xpointid: SHOP, part_idx: 6, pic_idx: 11 }),
      400,
      'websitePictureIndexInvalid',
    );
    for (const part_idx of [0, 7, '2x', null])
      await refused(
        () => post('/v1/xpoint/updatewebsitesection', as.olivia, { xpointid: SHOP, part_idx, enabled: true }),
        400,
        'websitePartIndexInvalid',
      );
    await refused(
      () =>
        upload(
          as.olivia,
          { xpointid: SHOP, partidx: 6, picidx: 4 },
          {
            name: 'shop.jpg',
            type: 'image/jpeg',
            data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          },
        ),
      400,
      'invalidImage',
    );
    await refused(
      () =>
        post('/v1/xpoint/updatewebsitesection', as.olivia, {
          xpointid: SHOP,
          part_idx: 2,
          enabled: false,
          version: version - 1,
        }),
      409,
      'conflict',
    );
    // a stale version on a picture upload too: the picture is not stored in the slot
    await refused(
      async () =>
        upload(
          as.olivia,
          { xpointid: SHOP, partidx: 6, picidx: 5, version: version - 1 },
          { name: 'a.jpg', type: 'image/jpeg', data: await jpeg() },
        ),
      409,
      'conflict',
    );
    await refused(
      () => post('/v1/xpoint/updatewebsitesection', as.uma, { xpointid: SHOP, part_idx: 2, enabled: false }),
      403,
      'forbidden',
    );
    await refused(
      async () =>
        upload(
          as.uma,
          { xpointid: SHOP, partidx: 6, picidx: 5 },
          { name: 'a.jpg', type: 'image/jpeg', data: await jpeg() },
        ),
      403,
      'forbidden',
    );
    await refused(
      () =>
        post('/v1/xpoint/updatewebsitesection', as.visitor, { xpointid: SHOP, part_idx: 2, enabled: false }),
      401,
      'unauthorized',
    );
    await refused(
      () =>
        post('/v1/xpoint/updatewebsitesection', as.olivia, { xpointid: HELP, part_idx: 2, enabled: true }),
      403,
      'websiteNotForReports',
    );
    await refused(
      () => post('/v1/xpoint/deletewebsitepartpic', as.olivia, { xpointid: SHOP, part_idx: 6, pic_idx: 9 }),
      404,
      'websitePictureNotFound',
    );
    await refused(
      () => post('/v1/xpoint/reorderwebsitepartpics', as.olivia, { xpointid: SHOP, part_idx: 6, order: [1] }),
      400,
      'websiteReorderInvalid',
    );
    await refused(
      () =>
        post('/v1/xpoint/updatewebsitesection', as.olivia, { xpointid: 'nope', part_idx: 2, enabled: true }),
      404,
      'pointNotFound',
    );
    const help = await get(`/v1/xpoint/${HELP}/website`);
    expect(help.json<{ errorcode: number }>().errorcode).toBe(ERRORS.websiteNotForReports.code);
    expect((await site()).version).toBe(version);
  });

  it('downloads the site as a static folder with its pictures, for controllers only', async () => {
    const res = await get(`/v1/xpoint/${SHOP}/website.zip`, as.olivia);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const names = Object.keys(files).sort();
    expect(names).toContain(`site-${SHOP}/index.html`);
    expect(names).toContain(`site-${SHOP}/site.css`);
    const images = names.filter((n) => n.includes('/images/'));
    expect(images).toHaveLength(2);
    const html = strFromU8(files[`site-${SHOP}/index.html`]!);
    expect(html).toContain('Our ovens');
    expect(html).toContain('Best bread in town');
    for (const image of images) expect(html).toContain(`images/${image.split('/').pop()}`);
    // nothing in the page points at a server: no absolute or root-relative address
    expect(html).not.toMatch(/(src|href)="(\/|https?:)/);
    expect((await get(`/v1/xpoint/${SHOP}/website.zip`, as.uma)).statusCode).toBe(403);
    expect((await get(`/v1/xpoint/${SHOP}/website.zip`)).statusCode).toBe(401);
  });
});
