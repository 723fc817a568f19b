import type { NewPoint, NewUser } from '../../src/server/store/schema';

/**
 * A point row with every NOT NULL column filled with a neutral value (a business of type shop at
 * 0,0, no flags, zero stats), so a test names only what it is about. Times default to now.
 */
export function newPoint(fields: Partial<NewPoint> & { id: string }): NewPoint {
  const now = Date.now();
  return {
    supertype: 'business',
    type: 'shop',
    subtype: null,
    title: fields.id,
    has_app: 0,
    allow_consulting: 1,
    lat: 0,
    lon: 0,
    rating_count: 0,
    health_status: 0,
    stats_total: 0,
    stats_prev_month: 0,
    stats_this_month: 0,
    stats_today: 0,
    beamtype: 0,
    is_promo: 0,
    meonmap_enabled: 0,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/**
 * An active user row without a password (cannot sign in), named after `name`: username `name`,
 * email `name@example.test`, full name from it. Times default to now.
 */
export function newUser(fields: Partial<NewUser> & { id: string; username: string }): NewUser {
  const now = Date.now();
  const email = `${fields.username}@example.test`;
  return {
    username_lower: fields.username.toLowerCase(),
    email,
    email_lower: email.toLowerCase(),
    fullname: fields.username,
    avatar_url: null,
    status: 'active',
    is_admin: 0,
    password_hash: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}
