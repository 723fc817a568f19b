import { sql, type ColumnDataType, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The first schema: every entity of section 3 of both spec documents.
 * Column types are chosen to read back the same JavaScript values on both dialects
 * (see store/schema.ts): times are bigint epoch milliseconds, booleans small integers.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time: ColumnDataType = 'bigint';
  const real: ColumnDataType = dialect === 'postgres' ? 'double precision' : 'real';
  const flag: ColumnDataType = dialect === 'postgres' ? 'smallint' : 'integer';
  /** an auto-incrementing integer key. */
  const serial = <T extends string>(t: CreateTableBuilder<T, never>, name: string) =>
    dialect === 'postgres'
      ? t.addColumn(name, 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull().unique())
    .addColumn('fullname', 'text', (c) => c.notNull())
    .addColumn('avatar_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('is_admin', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cities')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('city_forurl', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('iso2', 'text', (c) => c.notNull())
    .addColumn('lat', real, (c) => c.notNull())
    .addColumn('lon', real, (c) => c.notNull())
    .addColumn('population', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'text')
    .execute();
  await db.schema.createIndex('cities_population').on('cities').columns(['population']).execute();
  await db.schema.createIndex('cities_lat_lon').on('cities').columns(['lat', 'lon']).execute();

  await serial(db.schema.createTable('points'), 'seq')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('supertype', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('tagline', 'text')
    .addColumn('description', 'text')
    .addColumn('has_app', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('owner_userid', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('consultant_userid', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('allow_consulting', flag, (c) => c.notNull().defaultTo(1))
    .addColumn('city_id', 'integer', (c) => c.references('cities.id').onDelete('set null'))
    .addColumn('full_address', 'text')
    .addColumn('street', 'text')
    .addColumn('postalcode', 'text')
    .addColumn('region', 'text')
    .addColumn('country', 'text')
    .addColumn('lat', real, (c) => c.notNull())
    .addColumn('lon', real, (c) => c.notNull())
    .addColumn('link_email', 'text')
    .addColumn('link_phone', 'text')
    .addColumn('link_website', 'text')
    .addColumn('link_facebook', 'text')
    .addColumn('rating', real)
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('health_status', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('xsites_json', 'text')
    .addColumn('stats_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_prev_month', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_this_month', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_today', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('opening_hours', 'text')
    .addColumn('time_zone_name', 'text')
    .addColumn('resellerid', 'text')
    .addColumn('beamtype', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('marker', 'text')
    .addColumn('is_promo', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('url_icon_or_logo', 'text')
    .addColumn('url_cover_video', 'text')
    .addColumn('url_cover_image', 'text')
    .addColumn('pickup_destination', 'text')
    .addColumn('pickup_date_time', time)
    .addColumn('delivery_lat', real)
    .addColumn('delivery_lng', real)
    .addColumn('help_taskduration_minutes', 'integer')
    .addColumn('help_taskbudget', real)
    .addColumn('help_taskstart', time)
    .addColumn('help_canacceptjob', flag)
    .addColumn('help_canquote', flag)
    .addColumn('meonmap_enabled', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('meonmap_xpointid', 'text')
    .addColumn('xpoint_service', 'text')
    .addColumn('owner_dynamic_last_update', time)
    .addColumn('owner_callchat_priceperminute', real)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('points_supertype_type').on('points').columns(['supertype', 'type']).execute();
  await db.schema.createIndex('points_owner').on('points').columns(['owner_userid']).execute();
  await db.schema.createIndex('points_consultant').on('points').columns(['consultant_userid']).execute();
  await db.schema.createIndex('points_city').on('points').columns(['city_id']).execute();
  await db.schema.createIndex('points_beamtype').on('points').columns(['beamtype']).execute();

  await db.schema
    .createTable('point_screenshots')
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position between 1 and 14`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('point_screenshots_pk', ['point_id', 'position'])
    .execute();

  await serial(db.schema.createTable('contacts'), 'id')
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('roleid', 'text', (c) => c.notNull().check(sql`roleid in ('ADMN', '_CEO', 'OWNR', 'CUST')`))
    .addColumn('roleoverride', 'text')
    .addColumn('contact_firstname', 'text')
    .addColumn('contact_lastname', 'text')
    .addColumn('contact_username', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('contacts_point').on('contacts').columns(['point_id', 'position']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('xpoint_id', 'text', (c) => c.references('points.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('events.id').onDelete('set null'))
    .addColumn('owner_userid', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('cover_url', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text')
    .addColumn('start_date', time, (c) => c.notNull())
    .addColumn('end_date', time, (c) => c.notNull())
    .addColumn('lat', real, (c) => c.notNull())
    .addColumn('lon', real, (c) => c.notNull())
    .addColumn('full_address', 'text')
    .addColumn('city_id', 'integer', (c) => c.references('cities.id').onDelete('set null'))
    .addColumn('admission', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('admissionprice', real)
    .addColumn('website', 'text')
    .addColumn('description', 'text')
    .addColumn('marker', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addCheckConstraint('events_dates', sql`end_date >= start_date`)
    .execute();
  await db.schema
    .createIndex('events_point_start')
    .on('events')
    .columns(['xpoint_id', 'start_date'])
    .execute();
  await db.schema.createIndex('events_start').on('events').columns(['start_date']).execute();
  await db.schema.createIndex('events_end').on('events').columns(['end_date']).execute();

  await serial(db.schema.createTable('event_intervals'), 'id')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('start_at', time, (c) => c.notNull())
    .addColumn('end_at', time, (c) => c.notNull())
    .addCheckConstraint('event_intervals_order', sql`end_at >= start_at`)
    .execute();
  await db.schema
    .createIndex('event_intervals_event')
    .on('event_intervals')
    .columns(['event_id', 'start_at'])
    .execute();

  await serial(db.schema.createTable('event_tickets'), 'id')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit_price', real, (c) => c.notNull())
    .addColumn('max_quantity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_tickets_event').on('event_tickets').columns(['event_id']).execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('city_id', 'integer', (c) => c.references('cities.id').onDelete('set null'))
    .addColumn('xpoint_id', 'text', (c) => c.references('points.id').onDelete('set null'))
    .addColumn('parent_type', 'text')
    .addColumn('image_url', 'text')
    .addColumn('image_placeholder', 'text')
    .addColumn('video_url', 'text')
    .addColumn('file_resource_bitmask', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('posts_city_created').on('posts').columns(['city_id', 'created_at']).execute();
  await db.schema.createIndex('posts_user').on('posts').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('posts_point').on('posts').columns(['xpoint_id']).execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('stars', 'integer', (c) => c.notNull().check(sql`stars between 1 and 5`))
    .addColumn('text', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('reviews_one_per_user', ['point_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('reviews_point_created')
    .on('reviews')
    .columns(['point_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('likes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull().defaultTo('P'))
    .addColumn('like_type', flag, (c) => c.notNull().check(sql`like_type in (0, 1)`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('likes_one_per_user', ['user_id', 'object_type', 'object_id'])
    .execute();
  await db.schema
    .createIndex('likes_object')
    .on('likes')
    .columns(['object_type', 'object_id', 'like_type'])
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull().defaultTo('P'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('comments_object_created')
    .on('comments')
    .columns(['object_type', 'object_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> followee_id`)
    .execute();
  await db.schema.createIndex('follows_followee').on('follows').columns(['followee_id']).execute();

  let parts = db.schema
    .createTable('website_parts')
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('part_idx', 'integer', (c) => c.notNull())
    .addColumn('enabled', flag, (c) => c.notNull().defaultTo(1))
    .addColumn('title', 'text')
    .addColumn('description', 'text');
  for (let line = 1; line <= 10; line++) parts = parts.addColumn(`line${line}`, 'text');
  await parts
    .addColumn('updated_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('website_parts_pk', ['point_id', 'part_idx'])
    .execute();

  await db.schema
    .createTable('website_part_pictures')
    .addColumn('point_id', 'text', (c) => c.notNull())
    .addColumn('part_idx', 'integer', (c) => c.notNull())
    .addColumn('pic_idx', 'integer', (c) => c.notNull().check(sql`pic_idx between 1 and 10`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('website_part_pictures_pk', ['point_id', 'part_idx', 'pic_idx'])
    .addForeignKeyConstraint(
      'website_part_pictures_part',
      ['point_id', 'part_idx'],
      'website_parts',
      ['point_id', 'part_idx'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('media_assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('owner_userid', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await serial(db.schema.createTable('promo_events'), 'id')
    .addColumn('point_id', 'text', (c) => c.notNull().references('points.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('impression', 'click')`))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('promo_events_point')
    .on('promo_events')
    .columns(['point_id', 'kind', 'created_at'])
    .execute();

  if (dialect === 'sqlite') await sqliteSearchIndexes(db);
  else await postgresSearchIndexes(db);
}

/**
 * SQLite: an R*Tree over point coordinates and an FTS5 index over the words people search
 * (title, tagline, type, address), both kept current by triggers keyed on points.seq.
 */
async function sqliteSearchIndexes(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`create virtual table points_rtree using rtree(seq, min_lat, max_lat, min_lon, max_lon)`,
    sql`create virtual table points_fts using fts5(
      title, tagline, type, full_address,
      content = 'points', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`,
    sql`create trigger points_ai after insert on points begin
      insert into points_rtree (seq, min_lat, max_lat, min_lon, max_lon) values (new.seq, new.lat, new.lat, new.lon, new.lon);
      insert into points_fts (rowid, title, tagline, type, full_address) values (new.seq, new.title, new.tagline, new.type, new.full_address);
    end`,
    sql`create trigger points_ad after delete on points begin
      delete from points_rtree where seq = old.seq;
      insert into points_fts (points_fts, rowid, title, tagline, type, full_address) values ('delete', old.seq, old.title, old.tagline, old.type, old.full_address);
    end`,
    sql`create trigger points_au_geo after update of lat, lon on points begin
      update points_rtree set min_lat = new.lat, max_lat = new.lat, min_lon = new.lon, max_lon = new.lon where seq = new.seq;
    end`,
    sql`create trigger points_au_text after update of title, tagline, type, full_address on points begin
      insert into points_fts (points_fts, rowid, title, tagline, type, full_address) values ('delete', old.seq, old.title, old.tagline, old.type, old.full_address);
      insert into points_fts (rowid, title, tagline, type, full_address) values (new.seq, new.title, new.tagline, new.type, new.full_address);
    end`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/**
 * PostgreSQL: a GiST index on point(lon, lat) for bounds queries, a GIN full-text index with the
 * 'simple' configuration (no stemming: names are not English prose), and a trigram index on the
 * lower-cased title for prefix and fuzzy matches.
 */
async function postgresSearchIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  await sql`create extension if not exists unaccent with schema public`.execute(db);
  // unaccent() is only STABLE (it reads a dictionary by name); naming the dictionary explicitly
  // makes an IMMUTABLE wrapper that an index expression may use. 'Crème' and 'creme' then match.
  await sql`create function xp_fold(text) returns text language sql immutable parallel safe strict
    return public.unaccent('public.unaccent'::regdictionary, $1)`.execute(db);
  await sql`create index points_geo on points using gist (point(lon, lat))`.execute(db);
  await sql`create index points_text on points using gin (
    to_tsvector('simple', xp_fold(coalesce(title, '') || ' ' || coalesce(tagline, '') || ' ' || type || ' ' || coalesce(full_address, '')))
  )`.execute(db);
  await sql`create index points_title_trgm on points using gin (lower(title) gin_trgm_ops)`.execute(db);
  await sql`create index cities_geo on cities using gist (point(lon, lat))`.execute(db);
  await sql`create index cities_name_trgm on cities using gin (lower(city) gin_trgm_ops)`.execute(db);
  // prefix search on slugs uses the index under any collation, not only C
  await sql`create index cities_forurl_prefix on cities (city_forurl text_pattern_ops)`.execute(db);
}
