import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { AccountService } from '../../src/server/features/accounts/service';
import { diskMedia } from '../../src/server/media/store';
import type { TestApp } from './app';

/** Each call gets its own client address, so per-IP limits only bite where a test means them to. */
let addresses = 0;
export function freshIp(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

export interface SignedIn {
  id: string;
  token: string;
  antiforgery: string;
  /** the Cookie header value carrying the session cookie. */
  cookie: string;
}

export async function registerUser(
  t: TestApp,
  username: string,
  password = 'correct-horse-1',
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/v1/account/register',
    headers: { 'x-forwarded-for': freshIp() },
    payload: { username, email: `${username}@example.com`, fullname: `${username} Tester`, password },
  });
}

export async function login(
  t: TestApp,
  loginName: string,
  password: string,
  ip = freshIp(),
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/v1/account/login',
    headers: { 'x-forwarded-for': ip },
    payload: { login: loginName, password },
  });
}

/** Signs in through the API and keeps what a client keeps: the token, the cookie and the anti-forgery token. */
export async function signIn(t: TestApp, loginName: string, password: string): Promise<SignedIn> {
  const res = await login(t, loginName, password);
  if (res.statusCode !== 200)
    throw new Error(`sign-in of ${loginName} failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ user: { id: string }; token: string; antiforgery: string }>();
  return { id: body.user.id, token: body.token, antiforgery: body.antiforgery, cookie: sessionCookie(res) };
}

/** `xp_session=<value>` from a response's Set-Cookie headers. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'xp_session');
  if (!cookie) throw new Error('no session cookie was set');
  return `xp_session=${cookie.value}`;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `appnettoken ${token}` };
}

/** An administrator 'admin': the admin flag is not something one can register for, so the users CLI's path makes it. */
export async function createAdmin(t: TestApp, password: string): Promise<void> {
  await new AccountService(t.store, {
    passwordRule: t.config.passwordRule,
    media: diskMedia(path.join(t.config.dataDir, 'media')),
  }).createAccount({
    username: 'admin',
    email: 'admin@example.com',
    fullname: 'Ada Admin',
    password,
    isAdmin: true,
  });
}
