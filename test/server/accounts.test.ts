import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/app';
import { TEST_DIALECTS } from '../support/store';
import { AppError } from '../../src/shared/errors';
import { AccountService } from '../../src/server/features/accounts/service';
import { diskMedia } from '../../src/server/media/store';
import { bearer, freshIp, login, registerUser, sessionCookie, signIn } from '../support/accounts';

const PASSWORD = 'correct-horse-1';
const GUESSABLE =
  'is too easy to guess. Avoid common passwords and your own name, username or email; a few unrelated words make a strong password.';
const WRONG_CREDENTIALS = { errorcode: 2001, error: 'Wrong username/email or password.' };
const SESSION_INVALID = {
  errorcode: 2002,
  error: 'Your session is not valid or has expired; please sign in again.',
};
const ANTIFORGERY = {
  errorcode: 2003,
  error: 'The anti-forgery token is missing or wrong; reload the page and try again.',
};

describe.each(TEST_DIALECTS)('accounts over HTTP (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ dialect });
  });
  afterAll(() => t?.close());

  const userCount = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const me = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/v1/account/me', headers });

  describe('register', () => {
    it('creates the account, answers 201 {user, token} and signs the browser in', async () => {
      const res = await registerUser(t, 'Rita_R');
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['token', 'user']);
      expect(body.user).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        username: 'Rita_R',
        fullname: 'Rita_R Tester',
        email: 'Rita_R@example.com',
        avatar: null,
        isAdmin: false,
      });
      const cookie = res.cookies.find((c) => c.name === 'xp_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      expect((await me(bearer(body.token))).json().user.username).toBe('Rita_R');
      expect((await me({ cookie: sessionCookie(res) })).json().user.username).toBe('Rita_R');
    });

    it.each([
      ['an empty username', { username: '' }, 'username: is required.'],
      ['an all-space username', { username: '   ' }, 'username: is required.'],
      ['a short username', { username: 'ab' }, 'username: must be at least 3 characters long.'],
      ['a long username', { username: 'x'.repeat(33) }, 'username: must be at most 32 characters long.'],
      [
        'a username with a space',
        { username: 'two words' },
        'username: may contain only letters, digits, underscore (_) and hyphen (-).',
      ],
      ['a number as username', { username: 12345 }, 'username: must be text.'],
      ['a missing email', { email: undefined }, 'email: is required.'],
      ['a bad email', { email: 'me@localhost' }, 'email: Please enter a valid email address.'],
      [
        'a long email',
        { email: `${'x'.repeat(250)}@example.com` },
        'email: must be at most 254 characters long.',
      ],
      ['an empty full name', { fullname: '' }, 'fullname: is required.'],
      ['a long full name', { fullname: 'x'.repeat(101) }, 'fullname: must be at most 100 characters long.'],
      ['a short password', { password: 'short' }, 'password: must be at least 8 characters long.'],
      ['a long password', { password: 'p'.repeat(257) }, 'password: must be at most 256 characters long.'],
      ['a password of the wrong type', { password: ['a'] }, 'password: must be text.'],
    ])('refuses %s with a 400 naming the field, and stores nothing', async (_name, change, message) => {
      const before = await userCount();
      const payload = {
        username: 'valid_name',
        email: 'valid@example.com',
        fullname: 'Val Id',
        password: PASSWORD,
        ...change,
      };
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': freshIp() },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        errorcode: 1003,
        error: message,
        field: message.slice(0, message.indexOf(':')),
      });
      expect(await userCount()).toBe(before);
    });

    it.each([
      ['a common password', 'password'],
      ['a run of digits', '12345678'],
      ['a keyboard row', 'qwertyuiop'],
      ['the username', 'Marta_Lindqvist'],
      ["the email's local part", 'm.lindqvist'],
      ['the username and a year', 'Marta_Lindqvist1990'],
      ['a season, a year and a symbol', 'Summer2024!'],
    ])('refuses %s as a password with 2013 beside the field, and stores nothing', async (_name, password) => {
      const before = await userCount();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': freshIp() },
        payload: {
          username: 'Marta_Lindqvist',
          email: 'm.lindqvist@example.com',
          fullname: 'Marta Lindqvist',
          password,
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ field: 'password', errorcode: 2013, error: `password: ${GUESSABLE}` });
      expect(await userCount()).toBe(before);
    });

    it('ignores fields a client may not set, such as isAdmin', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': freshIp() },
        payload: {
          username: 'sneaky',
          email: 'sneaky@example.com',
          fullname: 'S',
          password: PASSWORD,
          isAdmin: true,
          is_admin: 1,
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().user.isAdmin).toBe(false);
    });

    it('refuses a body that is not an object', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': freshIp(), 'content-type': 'application/json' },
        payload: '[1,2]',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorcode: 1003, error: 'body: must be a JSON object.' });
    });

    it('refuses a taken username or email in any letter case with 409, and stores nothing', async () => {
      expect((await registerUser(t, 'dup_user')).statusCode).toBe(201);
      const before = await userCount();
      const sameName = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': freshIp() },
        payload: { username: 'DUP_user', email: 'other@example.com', fullname: 'Other', password: PASSWORD },
      });
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json()).toEqual({
        field: 'username',
        errorcode: 2004,
        error: 'username: "DUP_user" is already taken.',
      });
      const sameEmail = await t.app.inject({
        method: 'POST',
        url: '/v1/account/register',
        headers: { 'x-forwarded-for': freshIp() },
        payload: {
          username: 'someone_else',
          email: 'Dup_User@EXAMPLE.com',
          fullname: 'Other',
          password: PASSWORD,
        },
      });
      expect(sameEmail.statusCode).toBe(409);
      expect(sameEmail.json()).toEqual({
        field: 'email',
        errorcode: 2005,
        error: 'email: an account with this email address already exists.',
      });
      expect(await userCount()).toBe(before);
    });
    it('tells one address at most 3 times in parallel or in turn that an email is taken, then pauses its sign-ups', async () => {
      for (const name of ['probe_a', 'probe_b', 'probe_c', 'probe_d', 'probe_e', 'probe_f'])
        expect((await registerUser(t, name)).statusCode).toBe(201);
      const prober = freshIp();
      const signUp = (username: string, email: string, ip = prober) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/account/register',
          headers: { 'x-forwarded-for': ip },
          payload: { username, email, fullname: 'Prober', password: PASSWORD },
        });
      // usernames are public: a taken one is said as often as asked, and costs nothing
      for (let i = 0; i < 4; i++)
        expect((await signUp('probe_a', `new-${i}@example.com`)).statusCode).toBe(409);
      // emails are not: five probes at once get at most three answers
      const probes = await Promise.all(
        ['b', 'c', 'd', 'e', 'f'].map((x, i) => signUp(`prober_${i}`, `probe_${x}@example.com`)),
      );
      const codes = probes.map((res) => res.json().errorcode as number).sort();
      expect(codes).toEqual([1020, 1020, 2005, 2005, 2005]);
      // then the address waits, whatever it sends: a free email learns nothing either
      const paused = await signUp('prober_free', 'free-address@example.com');
      expect(paused.statusCode).toBe(429);
      expect(paused.json()).toEqual({ errorcode: 1020, error: 'Too many requests; try again in 15 min.' });
      expect(Number(paused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // someone at another address signs up as usual
      expect((await signUp('prober_free', 'free-address@example.com', freshIp())).statusCode).toBe(201);
    });
  });

  describe('sign in and out', () => {
    beforeAll(async () => {
      expect((await registerUser(t, 'lena')).statusCode).toBe(201);
    });

    it('signs in by username or email in any case: {user, token, antiforgery} and an httpOnly Lax cookie', async () => {
      for (const name of ['lena', 'LENA', 'lena@example.com', 'Lena@Example.com']) {
        const res = await login(t, name, PASSWORD);
        expect(res.statusCode, name).toBe(200);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['antiforgery', 'token', 'user']);
        expect(body.user.username).toBe('lena');
        const cookie = res.cookies.find((c) => c.name === 'xp_session');
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 30 * 24 * 3600 });
      }
    });

    it('marks the cookie Secure when served over HTTPS', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/login',
        headers: { 'x-forwarded-for': freshIp(), 'x-forwarded-proto': 'https' },
        payload: { login: 'lena', password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'xp_session')?.secure).toBe(true);
    });

    it('gives the same answer for an unknown account and a wrong password', async () => {
      const wrong = await login(t, 'lena', 'not-the-password');
      const unknown = await login(t, 'nobody_here', 'not-the-password');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(WRONG_CREDENTIALS);
      expect(unknown.json()).toEqual(WRONG_CREDENTIALS);
      expect(wrong.cookies).toEqual([]);
    });

    it('refuses an empty login body with a field message', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/login',
        headers: { 'x-forwarded-for': freshIp() },
        payload: { login: '', password: 'x' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ field: 'login', errorcode: 1003, error: 'login: is required.' });
    });

    it('answers /me with 401 for a visitor and a tampered token', async () => {
      const visitor = await me({});
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toEqual({ errorcode: 1010, error: 'You need to sign in to do this.' });
      const { token } = await signIn(t, 'lena', PASSWORD);
      const tampered = `${token.slice(0, 10)}${token[10] === 'a' ? 'b' : 'a'}${token.slice(11)}`;
      for (const bad of [tampered, `${token}x`, 'garbage']) {
        const res = await me(bearer(bad));
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(SESSION_INVALID);
      }
      // a tampered cookie is no session at all: the request goes on as a visitor
      expect((await me({ cookie: `xp_session=${tampered}` })).statusCode).toBe(401);
    });

    it('answers 401 for an expired session', async () => {
      const session = await signIn(t, 'lena', PASSWORD);
      expect((await me(bearer(session.token))).statusCode).toBe(200);
      await t.store.db
        .updateTable('sessions')
        .set({ expires_at: Date.now() - 1000 })
        .where('user_id', '=', session.id)
        .execute();
      const res = await me(bearer(session.token));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(SESSION_INVALID);
      expect((await me({ cookie: session.cookie })).statusCode).toBe(401);
    });

    it('keeps a session in use alive: expiry slides forward on use', async () => {
      const session = await signIn(t, 'lena', PASSWORD);
      const old = Date.now() - 10 * 24 * 3600_000;
      await t.store.db
        .updateTable('sessions')
        .set({ last_seen_at: old, expires_at: old + 30 * 24 * 3600_000 })
        .where('user_id', '=', session.id)
        .execute();
      const res = await me({ cookie: session.cookie });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'xp_session')?.maxAge).toBe(30 * 24 * 3600);
      const rows = await t.store.db
        .selectFrom('sessions')
        .select('expires_at')
        .where('user_id', '=', session.id)
        .execute();
      expect(Math.max(...rows.map((r) => Number(r.expires_at)))).toBeGreaterThan(
        Date.now() + 29 * 24 * 3600_000,
      );
    });

    it('signs out: the token and the cookie stop working', async () => {
      const session = await signIn(t, 'lena', PASSWORD);
      const out = await t.app.inject({
        method: 'POST',
        url: '/v1/account/logout',
        headers: { cookie: session.cookie, requestverificationtoken: session.antiforgery },
      });
      expect(out.statusCode).toBe(200);
      expect(out.cookies.find((c) => c.name === 'xp_session')?.value).toBe('');
      expect((await me(bearer(session.token))).statusCode).toBe(401);
      expect((await me({ cookie: session.cookie })).statusCode).toBe(401);
    });

    it('signs out everywhere: every session of the account ends', async () => {
      const phone = await signIn(t, 'lena', PASSWORD);
      const laptop = await signIn(t, 'lena', PASSWORD);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/logout-everywhere',
        headers: bearer(phone.token),
      });
      expect(res.statusCode).toBe(200);
      expect((await me(bearer(phone.token))).statusCode).toBe(401);
      expect((await me(bearer(laptop.token))).statusCode).toBe(401);
      expect((await me({ cookie: laptop.cookie })).statusCode).toBe(401);
    });
  });

  describe('anti-forgery', () => {
    beforeAll(async () => {
      expect((await registerUser(t, 'afuser')).statusCode).toBe(201);
    });

    it('refuses a cookie write without the header with 403, and changes nothing', async () => {
      const session = await signIn(t, 'afuser', PASSWORD);
      const change = await t.app.inject({
        method: 'POST',
        url: '/v1/account/password',
        headers: { cookie: session.cookie },
        payload: { currentPassword: PASSWORD, newPassword: 'a-new-password-9' },
      });
      expect(change.statusCode).toBe(403);
      expect(change.json()).toEqual(ANTIFORGERY);
      const out = await t.app.inject({
        method: 'POST',
        url: '/v1/account/logout',
        headers: { cookie: session.cookie },
      });
      expect(out.statusCode).toBe(403);
      // still signed in, and the password is unchanged
      expect((await me({ cookie: session.cookie })).statusCode).toBe(200);
      expect((await login(t, 'afuser', PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a token from another session', async () => {
      const a = await signIn(t, 'afuser', PASSWORD);
      const b = await signIn(t, 'afuser', PASSWORD);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/logout',
        headers: { cookie: a.cookie, requestverificationtoken: b.antiforgery },
      });
      expect(res.statusCode).toBe(403);
      expect((await me({ cookie: a.cookie })).statusCode).toBe(200);
    });

    it('does not ask API clients with the Authorization header for it', async () => {
      const session = await signIn(t, 'afuser', PASSWORD);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/logout',
        headers: bearer(session.token),
      });
      expect(res.statusCode).toBe(200);
      expect((await me(bearer(session.token))).statusCode).toBe(401);
    });

    it('hands out the session token to users and a cookie-bound token to visitors', async () => {
      const session = await signIn(t, 'afuser', PASSWORD);
      const user = await t.app.inject({
        method: 'GET',
        url: '/v1/account/antiforgery',
        headers: { cookie: session.cookie },
      });
      expect(user.statusCode).toBe(200);
      expect(user.json()).toEqual({ token: session.antiforgery });

      const visitor = await t.app.inject({ method: 'GET', url: '/v1/account/antiforgery' });
      expect(visitor.statusCode).toBe(200);
      const visitorCookie = visitor.cookies.find((c) => c.name === 'xp_af');
      expect(visitorCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      const token = visitor.json().token;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(token).not.toBe(session.antiforgery);
      const again = await t.app.inject({
        method: 'GET',
        url: '/v1/account/antiforgery',
        headers: { cookie: `xp_af=${visitorCookie?.value}` },
      });
      expect(again.json().token).toBe(token);
    });
  });

  describe('the page', () => {
    it('carries the anti-forgery token in <meta name="csrf-token">, for visitors and users', async () => {
      const visitor = await t.app.inject({
        method: 'GET',
        url: '/maps',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(visitor.statusCode).toBe(200);
      const html =
        visitor.headers['content-encoding'] === 'gzip'
          ? gunzipSync(visitor.rawPayload).toString()
          : visitor.body;
      const visitorToken = /<meta name="csrf-token" content="([A-Za-z0-9_-]{43})">/.exec(html)?.[1];
      expect(visitorToken).toBeDefined();
      const visitorCookie = visitor.cookies.find((c) => c.name === 'xp_af');
      expect(visitorCookie?.httpOnly).toBe(true);
      const api = await t.app.inject({
        method: 'GET',
        url: '/v1/account/antiforgery',
        headers: { cookie: `xp_af=${visitorCookie?.value}` },
      });
      expect(api.json().token).toBe(visitorToken);

      const session = await signIn(t, 'afuser', PASSWORD);
      const page = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: session.cookie } });
      expect(page.body).toContain(`<meta name="csrf-token" content="${session.antiforgery}">`);
    });

    it('names the signed-in user in <meta name="xp-user-id">, empty for a visitor, and is never cached', async () => {
      const visitor = await t.app.inject({ method: 'GET', url: '/u/afuser' });
      expect(visitor.body).toContain('<meta name="xp-user-id" content="">');
      expect(visitor.headers['cache-control']).toBe('no-store');
      const session = await signIn(t, 'afuser', PASSWORD);
      const me = await t.app.inject({
        method: 'GET',
        url: '/v1/account/me',
        headers: { authorization: `appnettoken ${session.token}` },
      });
      const page = await t.app.inject({ method: 'GET', url: '/maps', headers: { cookie: session.cookie } });
      expect(page.body).toContain(`<meta name="xp-user-id" content="${me.json().user.id}">`);
    });
  });

  describe('change password', () => {
    beforeAll(async () => {
      expect((await registerUser(t, 'pwuser')).statusCode).toBe(201);
    });

    it('refuses a wrong current password and a weak new one, changing nothing', async () => {
      const session = await signIn(t, 'pwuser', PASSWORD);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/v1/account/password',
        headers: bearer(session.token),
        payload: { currentPassword: 'nope-nope-nope', newPassword: 'a-new-password-9' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        field: 'currentPassword',
        errorcode: 2007,
        error: 'currentPassword: the current password is wrong.',
      });
      const weak = await t.app.inject({
        method: 'POST',
        url: '/v1/account/password',
        headers: bearer(session.token),
        payload: { currentPassword: PASSWORD, newPassword: 'short' },
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toEqual({
        field: 'newPassword',
        errorcode: 1003,
        error: 'newPassword: must be at least 8 characters long.',
      });
      expect((await login(t, 'pwuser', PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a common or easily guessed new password, its own username included', async () => {
      const session = await signIn(t, 'pwuser', PASSWORD);
      for (const newPassword of ['password', '12345678', 'pwuser12', 'pwuser2024', 'iloveyou1']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/account/password',
          headers: bearer(session.token),
          payload: { currentPassword: PASSWORD, newPassword },
        });
        expect(res.statusCode, newPassword).toBe(400);
        expect(res.json(), newPassword).toEqual({
          field: 'newPassword',
          errorcode: 2013,
          error: `newPassword: ${GUESSABLE}`,
        });
      }
      expect((await login(t, 'pwuser', PASSWORD)).statusCode).toBe(200);
    });

    it('changes it: the old one stops working, other sessions end, this one goes on', async () => {
      const other = await signIn(t, 'pwuser', PASSWORD);
      const session = await signIn(t, 'pwuser', PASSWORD);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/password',
        headers: { cookie: session.cookie, requestverificationtoken: session.antiforgery },
        payload: { currentPassword: PASSWORD, newPassword: 'a-new-password-9' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.username).toBe('pwuser');
      expect((await login(t, 'pwuser', PASSWORD)).json()).toEqual(WRONG_CREDENTIALS);
      expect((await login(t, 'pwuser', 'a-new-password-9')).statusCode).toBe(200);
      expect((await me({ cookie: session.cookie })).statusCode).toBe(200);
      expect((await me(bearer(other.token))).statusCode).toBe(401);
    });

    it('needs a signed-in user', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/account/password',
        payload: { currentPassword: PASSWORD, newPassword: 'a-new-password-9' },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('avatar', () => {
    let session: Awaited<ReturnType<typeof signIn>>;
    beforeAll(async () => {
      expect((await registerUser(t, 'avatar_user')).statusCode).toBe(201);
      session = await signIn(t, 'avatar_user', PASSWORD);
    });
    const upload = (image: unknown, headers: Record<string, string> = bearer(session.token)) =>
      t.app.inject({ method: 'POST', url: '/v1/account/avatar', headers, payload: { image } });

    it('stores a 256x256 WebP by content hash and sets it on the user', async () => {
      const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#3a7' } })
        .png()
        .toBuffer();
      const res = await upload(`data:image/png;base64,${png.toString('base64')}`);
      expect(res.statusCode).toBe(200);
      const avatar: string = res.json().user.avatar;
      expect(avatar).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
      const file = await t.app.inject({ method: 'GET', url: avatar });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/webp');
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
      expect(fs.existsSync(path.join(t.config.dataDir, 'media', path.basename(avatar)))).toBe(true);
      const asset = await t.store.db
        .selectFrom('media_assets')
        .selectAll()
        .where('id', '=', path.basename(avatar, '.webp'))
        .executeTakeFirst();
      expect(asset).toMatchObject({ mime: 'image/webp', width: 256, height: 256, owner_userid: session.id });
      expect(
        (await t.app.inject({ method: 'GET', url: '/v1/account/me', headers: bearer(session.token) })).json()
          .user.avatar,
      ).toBe(avatar);
    });

    it('refuses what is not a JPEG, PNG, GIF or WebP picture, by content', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
      for (const image of [
        `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`,
        `data:image/png;base64,${svg.toString('base64')}`,
        'data:image/png;base64,@@@',
      ]) {
        const res = await upload(image);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          field: 'image',
          errorcode: 2009,
          error: 'image: must be a JPEG, PNG, GIF or WebP picture.',
        });
      }
      expect((await upload(42)).json()).toEqual({
        field: 'image',
        errorcode: 1003,
        error: 'image: must be text.',
      });
    });

    it('refuses an image over 10 MB with the spec message', async () => {
      const res = await upload(`data:image/jpeg;base64,${'A'.repeat(14_000_000)}`);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ errorcode: 2008, error: 'Invalid image size. Max allowed 10 MB' });
      const huge = await upload('A'.repeat(16 * 1024 * 1024));
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toEqual({ errorcode: 2008, error: 'Invalid image size. Max allowed 10 MB' });
    });

    it('needs a signed-in user', async () => {
      expect((await upload('x', {})).statusCode).toBe(401);
    });
  });

  describe('abuse limits', () => {
    beforeAll(async () => {
      expect((await registerUser(t, 'victim')).statusCode).toBe(201);
    });

    const LOCKED = /^Too many failed sign-ins for this account; try again in \d+ (s|min)\.$/;
    /** Lets every lock pass now, as if its time had gone by. */
    const passLocks = () =>
      t.store.db
        .updateTable('login_throttle')
        .set({ locked_until: Date.now() - 1 })
        .execute();

    it('locks an address out of an account after 5 wrong passwords, while the owner elsewhere signs in at once', async () => {
      const attacker = freshIp();
      const answers: number[] = [];
      let locked: Awaited<ReturnType<typeof login>> | undefined;
      for (let i = 0; i < 8; i++) {
        const res = await login(t, 'victim', `guess-${i}-wrong`, attacker);
        answers.push(res.statusCode);
        if (res.statusCode === 429) locked = res;
      }
      expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expect(locked?.json()).toMatchObject({ errorcode: 2006 });
      expect(locked?.json().error).toMatch(LOCKED);
      // the lock says when to try again: 30 s for the first lock
      const retryAfter = Number(locked?.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(25);
      expect(retryAfter).toBeLessThanOrEqual(30);
      // from the attacker's address even the right password waits
      expect((await login(t, 'victim', PASSWORD, attacker)).statusCode).toBe(429);
      // the owner, at home, is not slowed at all
      expect((await login(t, 'victim', PASSWORD, freshIp())).statusCode).toBe(200);
    });

    it('doubles the lock for each further failure after one passes, and forgets it on a right password', async () => {
      const attacker = freshIp();
      for (let i = 0; i < 5; i++) await login(t, 'victim', `again-${i}`, attacker);
      await passLocks();
      // one more try once the lock has passed; failing it locks for twice as long
      expect((await login(t, 'victim', 'still-wrong', attacker)).statusCode).toBe(401);
      const second = await login(t, 'victim', 'still-wrong', attacker);
      expect(second.statusCode).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(55);
      expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(60);
      await passLocks();
      // the owner typing from that address gets in, and the address starts afresh
      expect((await login(t, 'victim', PASSWORD, attacker)).statusCode).toBe(200);
      for (let i = 0; i < 5; i++)
        expect((await login(t, 'victim', `fresh-${i}`, attacker)).statusCode).toBe(401);
    });

    it('checks at most 5 passwords of 30 sent at once from one address', async () => {
      expect((await registerUser(t, 'raced')).statusCode).toBe(201);
      const attacker = freshIp();
      // 30 is the address's route limit a minute: a burst past it is refused whole by the limiter
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(t, 'raced', `parallel-${i}`, attacker)),
      );
      const codes = answers.map((res) => res.json().errorcode as number);
      expect(codes.filter((c) => c === 2001)).toHaveLength(5);
      expect(codes.filter((c) => c === 2006)).toHaveLength(25);
    });

    it('checks at most 5 passwords of 50 sign-ins run at once, and at most 50 across 60 addresses', async () => {
      expect((await registerUser(t, 'raced_50')).statusCode).toBe(201);
      const service = new AccountService(t.store, {
        passwordRule: t.config.passwordRule,
        media: diskMedia(path.join(t.config.dataDir, 'media')),
      });
      let checked = 0;
      const attempt = (password: string, ip: string) =>
        service.authenticate({ login: 'raced_50', password }, ip).then(
          () => 'in',
          (error: unknown) => {
            if (error instanceof AppError && error.errorName === 'wrongCredentials') checked += 1;
            return error instanceof AppError ? error.errorName : String(error);
          },
        );
      const oneAddress = await Promise.all(
        Array.from({ length: 50 }, (_, i) => attempt(`parallel-${i}`, '192.0.2.7')),
      );
      expect(checked).toBe(5);
      expect(oneAddress.filter((name) => name === 'accountLocked')).toHaveLength(45);
      checked = 0;
      // 60 addresses, 2 tries each, all at once: the account-wide limit (50, less the 5 above) holds
      await Promise.all(
        Array.from({ length: 120 }, (_, i) => attempt(`spread-${i}`, `198.51.100.${i % 60}`)),
      );
      expect(checked).toBe(45);
    });

    it('locks the account for everyone once it fails from many addresses', async () => {
      expect((await registerUser(t, 'besieged')).statusCode).toBe(201);
      const attempts: Promise<unknown>[] = [];
      for (let address = 0; address < 10; address++) {
        const ip = freshIp();
        for (let i = 0; i < 5; i++) attempts.push(login(t, 'besieged', `spread-${address}-${i}`, ip));
      }
      await Promise.all(attempts);
      const owner = await login(t, 'besieged', PASSWORD, freshIp());
      expect(owner.statusCode).toBe(429);
      expect(owner.json().error).toMatch(LOCKED);
      expect(Number(owner.headers['retry-after'])).toBeGreaterThan(0);
      await passLocks();
      expect((await login(t, 'besieged', PASSWORD, freshIp())).statusCode).toBe(200);
    });

    it('treats an unknown account the same way, so locks reveal nothing', async () => {
      const ip = freshIp();
      const answers: number[] = [];
      for (let i = 0; i < 7; i++)
        answers.push((await login(t, 'ghost_account', `guess-${i}`, ip)).statusCode);
      expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429]);
    });

    it('limits sign-in attempts per address', async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/account/login',
          headers: { 'x-forwarded-for': ip },
          payload: {},
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(400));
      expect(statuses[30]).toBe(429);
      const last = await t.app.inject({
        method: 'POST',
        url: '/v1/account/login',
        headers: { 'x-forwarded-for': ip },
        payload: {},
      });
      expect(last.json()).toMatchObject({ errorcode: 1020 });
      expect(last.headers['retry-after']).toBeDefined();
    });

    it('limits sign-ups per address', async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/account/register',
          headers: { 'x-forwarded-for': ip },
          payload: {},
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(statuses[10]).toBe(429);
    });
  });
});
