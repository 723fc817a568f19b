import sharp from 'sharp';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { websiteWriteResponseSchema } from '../../src/shared/website/api';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, freshIp, registerUser, signIn } from '../support/accounts';
import { newPoint } from '../support/factories';
import { formBody } from '../support/multipart';
import { startS3rver, type S3rver } from '../support/s3rver';

/**
 * The website's pictures with media in an S3 bucket (s3rver): written through the media store
 * interface, served by /media/<key>, and read back from the bucket into the downloaded folder.
 */
describe('website pictures on S3', () => {
  let s3: S3rver;
  let t: TestApp;
  let olivia: Record<string, string>;
  const SHOP = 'webS3Shop01';

  beforeAll(async () => {
    s3 = await startS3rver();
    t = await openTestApp({ mediaUrl: s3.mediaUrl('website') });
    expect((await registerUser(t, 'olivia', 'website-s3-password-1')).statusCode).toBe(201);
    const session = await signIn(t, 'olivia', 'website-s3-password-1');
    olivia = bearer(session.token);
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: SHOP, title: 'Bucket bakery', owner_userid: session.id }))
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('stores an uploaded picture in the bucket, serves it, and puts it in the downloaded folder', async () => {
    const data = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c06030' } })
      .jpeg()
      .toBuffer();
    const form = await formBody(
      { xpointid: SHOP, partidx: 1, picidx: 1 },
      { name: 'a.jpg', type: 'image/jpeg', data },
      'imgFile',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/xpoint/updatewebsitepartpic',
      headers: { ...olivia, ...form.headers, 'x-forwarded-for': freshIp() },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const picture = websiteWriteResponseSchema.parse(res.json()).part.pictures[0]!;
    const served = await t.app.inject({ method: 'GET', url: picture.small! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');

    const zip = await t.app.inject({
      method: 'GET',
      url: `/v1/xpoint/${SHOP}/website.zip`,
      headers: { ...olivia, 'x-forwarded-for': freshIp() },
    });
    expect(zip.statusCode, zip.body).toBe(200);
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const images = Object.keys(files).filter((name) => name.includes('/images/'));
    expect(images).toHaveLength(1);
    expect(Buffer.from(files[images[0]!]!).equals(served.rawPayload)).toBe(true);
  });
});
