/** Demo users (the fixed accounts first) and who follows whom. */
import { FIRST_NAMES, LAST_NAMES } from './content';
import { slugOf } from './places';
import { Random } from './random';
import type { FollowRow, UserRow } from './tables';
import {
  ADMIN,
  OLIVIA,
  CARLOS,
  UMA,
  FIRST_GENERATED_USER,
  DEMO_ACCOUNTS,
  HOUR,
  DAY,
  type SeedWorld,
} from './world';

export function users(w: SeedWorld): UserRow[] {
  const rng = w.userRng;
  const rows: UserRow[] = [];
  const taken = new Set<string>();
  DEMO_ACCOUNTS.forEach((account, i) => {
    const [first = '', last = ''] = account.fullname.split(' ');
    const created = w.now - 730 * DAY + i * HOUR;
    taken.add(account.username);
    w.userInfo.push({ id: w.userId(i), username: account.username, first, last, active: true });
    rows.push({
      id: w.userId(i),
      username: account.username,
      username_lower: account.username,
      email: `${account.username}@example.com`,
      email_lower: `${account.username}@example.com`,
      fullname: account.fullname,
      avatar_url: w.images.avatars[i % w.images.avatars.length] ?? null,
      status: 'active',
      is_admin: account.isAdmin ? 1 : 0,
      password_hash: w.passwordHash,
      created_at: created,
      updated_at: created,
    });
  });
  const domains = ['example.com', 'example.org', 'example.net'];
  for (let n = 0; n < w.generatedUsers; n++) {
    const index = FIRST_GENERATED_USER + n;
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const username = uniqueUsername(rng, first, last, taken);
    const created = w.now - rng.int(1, 1100) * DAY - rng.int(0, DAY - 1);
    const updated = Math.min(w.now, created + rng.int(0, 300) * DAY);
    const email = `${username}@${rng.pick(domains)}`;
    // drawn in the order they always were: the same seed gives the same users
    const avatar = rng.chance(0.6) ? rng.pick(w.images.avatars) : null;
    const status = w.pickStatus(rng);
    w.userInfo.push({ id: w.userId(index), username, first, last, active: status === 'active' });
    rows.push({
      id: w.userId(index),
      username,
      username_lower: username.toLowerCase(),
      email,
      email_lower: email.toLowerCase(),
      fullname: `${first} ${last}`,
      avatar_url: avatar,
      status,
      is_admin: 0,
      password_hash: w.passwordHash,
      created_at: created,
      updated_at: updated,
    });
  }
  return rows;
}

export function follows(w: SeedWorld): FollowRow[] {
  const rng = Random.fork(w.seed, 'follows');
  const target = Math.max(20, Math.round(w.total / 10));
  const userCount = w.userInfo.length;
  const perUser = target / userCount;
  const rows: FollowRow[] = [];
  for (let follower = 0; follower < userCount; follower++) {
    if (follower === ADMIN) continue;
    const chosen = new Set<number>();
    if (follower === UMA) [OLIVIA, CARLOS].forEach((u) => chosen.add(u));
    else if (follower !== OLIVIA && rng.chance(0.15)) chosen.add(OLIVIA);
    const want = Math.floor(perUser) + (rng.chance(perUser - Math.floor(perUser)) ? 1 : 0);
    for (let tries = 0; chosen.size < want && tries < want * 4; tries++) {
      const followee = w.someUser(rng, 1.3);
      if (followee !== follower) chosen.add(followee);
    }
    for (const followee of chosen) {
      rows.push({
        follower_id: w.userInfo[follower]?.id ?? '',
        followee_id: w.userInfo[followee]?.id ?? '',
        created_at: w.now - rng.int(1, 400) * DAY - rng.int(0, DAY - 1),
      });
    }
  }
  rows.push(...adminFollowers(w));
  for (const row of rows)
    w.inbox.add({
      recipientId: row.followee_id,
      actorId: row.follower_id,
      action: 'follow',
      objectType: 'U',
      objectId: row.follower_id,
      at: Number(row.created_at),
    });
  return rows;
}

/**
 * A few people who follow Ada, the admin, lately (nobody else's draw picks her): her bell has news
 * too. Their own stream, so the other follows stay as they were.
 */
function adminFollowers(w: SeedWorld): FollowRow[] {
  const rng = Random.fork(w.seed, 'admin-followers');
  const count = Math.min(w.generatedUsers, 6);
  return rng.distinct(count, w.generatedUsers).map((n, i) => ({
    follower_id: w.userInfo[FIRST_GENERATED_USER + n]?.id ?? '',
    followee_id: w.userInfo[ADMIN]?.id ?? '',
    // one every couple of days, the newest this morning
    created_at: w.now - (i * 2 + 1) * DAY + rng.int(0, 20) * HOUR,
  }));
}

/**
 * A username from a person's name, unique case-insensitively, of letters, digits, `_` and `-` only
 * (the accounts rule): "sofia-rossi", "srossi", "sofia_rossi7".
 */
function uniqueUsername(rng: Random, first: string, last: string, taken: Set<string>): string {
  const f = slugOf(first, 'user').replace(/-/g, '');
  const l = slugOf(last, 'x').replace(/-/g, '');
  const base = rng.pick([
    `${f}-${l}`,
    `${f}${l}`,
    `${f}_${l}`,
    `${f[0] ?? 'x'}${l}`,
    `${f}${l[0] ?? ''}`,
    `${l}-${f}`,
  ]);
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++)
    candidate = `${base}${n <= 9 ? n : rng.int(10, 9999)}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
