import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, signIn } from '../support/accounts';

/**
 * The post form's cover over a real socket (issue 17; issue 16's rule for every upload): a visitor's
 * upload is refused before its body is read, another user's post id before its file is read, and a
 * cover past 10 MB the moment it passes the limit, so none of them is read whole.
 */
const MB = 1024 * 1024;
const PASSWORD = 'posts-upload-password-1';
const BOUNDARY = '----posts-upload-test';

interface Sent {
  status: number;
  body: string;
  /** bytes of the file handed to the socket when the answer came */
  fileBytesSent: number;
}

/** A multipart save whose cover part is `fileBytes` long, produced only as fast as the server reads it. */
function upload(
  port: number,
  headers: Record<string, string>,
  fields: Record<string, string>,
  fileBytes: number,
): Promise<Sent> {
  const opening = Buffer.from(
    Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="cover_file"; filename="big.jpg"\r\n` +
      'Content-Type: image/jpeg\r\n\r\n',
  );
  const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  chunk[0] = 0xff;
  chunk[1] = 0xd8;
  chunk[2] = 0xff;
  let sent = 0;
  const body = new Readable({
    read() {
      if (sent === 0) this.push(opening);
      if (sent >= fileBytes) {
        this.push(closing);
        this.push(null);
        return;
      }
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/myposts/save',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(
          opening.length + Math.ceil(fileBytes / chunk.length) * chunk.length + closing.length,
        ),
      },
    });
    request.on('response', (response) => {
      const at = sent;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (piece: string) => (text += piece));
      response.on('end', () => {
        body.unpipe(request);
        body.destroy();
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: text, fileBytesSent: at });
      });
    });
    request.on('error', (error) => reject(error));
    body.pipe(request);
  });
}

describe('post covers over a real socket', () => {
  let t: TestApp;
  let port: number;
  const as = {} as Record<'olivia' | 'carlos', Record<string, string>>;
  let postId: string;

  beforeAll(async () => {
    t = await openTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    for (const name of ['olivia', 'carlos'] as const) {
      expect((await registerUser(t, name, PASSWORD)).statusCode).toBe(201);
      as[name] = bearer((await signIn(t, name, PASSWORD)).token);
    }
    postId = randomUUID();
    const made = await t.app.inject({
      method: 'POST',
      url: '/myposts/save',
      headers: as.olivia,
      payload: { id: postId, title: 'Olivia’s', description: 'Hers.', type: 'deal' },
    });
    expect(made.statusCode, made.body).toBe(201);
  });
  afterAll(() => t?.close());

  const fields = () => ({ id: postId, version: '1', title: 'Taken over', description: 'x', type: 'deal' });

  it("refuses a visitor's 60 MB cover with 401 before reading it", async () => {
    const sent = await upload(port, {}, fields(), 60 * MB);
    expect(sent.status, sent.body).toBe(401);
    expect(JSON.parse(sent.body)).toMatchObject({ errorcode: 1010, error_n: 1010 });
    expect(sent.fileBytesSent).toBeLessThan(16 * MB);
  });

  it("refuses another user's post id with 403 before reading the file, and leaves the post", async () => {
    const sent = await upload(port, as.carlos, fields(), 60 * MB);
    expect(sent.status, sent.body).toBe(403);
    expect(JSON.parse(sent.body)).toMatchObject({ errorcode: 1011 });
    expect(sent.fileBytesSent).toBeLessThan(16 * MB);
    const row = await t.store.db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();
    expect(row).toMatchObject({ title: 'Olivia’s', version: 1, image_url: null });
  });

  it("refuses the author's 30 MB cover with the spec's message once it passes 10 MB", async () => {
    const sent = await upload(port, as.olivia, fields(), 30 * MB);
    expect(sent.status, sent.body).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({
      errorcode: 2008,
      error: 'Invalid image size. Max allowed 10 MB',
      error_n: 2008,
    });
    // 10 MB read, plus what the loopback socket buffers held (measured 17.5 MB handed over of 30)
    expect(sent.fileBytesSent).toBeLessThan(24 * MB);
    const row = await t.store.db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();
    expect(row).toMatchObject({ title: 'Olivia’s', version: 1, image_url: null });
  });
});
