import { execSync } from 'node:child_process';
import pg from 'pg';
import { prefixFor, POINT_SUPERTYPES } from '../src/shared/domain/supertypes';
import { CELL_LEVELS, CLUSTER_MAX_ZOOM } from '../src/server/tiles/points/group-index';
import type { Store } from '../src/server/store/store';
import { log } from './support';

/**
 * The PostGIS peers of bench:tiles, on a copy of the bench's points in database xpoint_bench_tiles
 * (loaded once, reused while the point count and seed match):
 *
 * - `clusters`: what a PostGIS user would build. The clusters of every zoom 0-16 are computed once into
 *   a table per zoom (the same grid as ours: 8 x 8 cells a tile, a cell's points make one cluster, a
 *   lone point is drawn as itself with its attributes), each table GiST-indexed on its centroid and
 *   CLUSTERed on that index; a tile is one indexed range read of its zoom's table through ST_AsMVTGeom
 *   and ST_AsMVT, a prepared statement per zoom over a pooled connection.
 * - `on the fly`: the earlier peer, which clusters the tile's points on every request (ST_SnapToGrid
 *   over the points table): the design a first attempt would take, kept as a second line.
 */

const DATABASE = 'xpoint_bench_tiles';
/** Bumped when the precomputed tables' layout changes, so a stale copy is rebuilt. */
const CLUSTERS_VERSION = 1;
/** Half the width of the Web Mercator world, in metres (EPSG:3857). */
const HALF_WORLD = 20037508.342789244;

export interface PostgisSetup {
  url: string;
  /** seconds spent loading the points now (0 when reused). */
  loadSeconds: number;
  /** seconds spent precomputing the per-zoom cluster tables now (0 when reused). */
  clusterSeconds: number;
  /** seconds the precompute took when it was made (kept in the database). */
  clusterSecondsWhenMade: number;
  /** rows over all per-zoom tables, and their size on disk with indexes. */
  clusterRows: number;
  clusterBytes: number;
}

/**
 * Makes sure PostGIS answers at `adminUrl`'s server (installs the Debian package when missing and
 * running as root), loads the store's points and builds the per-zoom cluster tables when missing or
 * stale. Null when PostgreSQL does not answer or PostGIS cannot be had.
 */
export async function preparePostgis(
  adminUrl: string,
  store: Store,
  points: number,
  seed: number,
): Promise<PostgisSetup | null> {
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    log(`PostGIS peers skipped: cannot reach ${adminUrl} (${String(error)})`);
    return null;
  }
  try {
    const available = await admin.query(`select 1 from pg_available_extensions where name = 'postgis'`);
    if (available.rowCount === 0) {
      if (process.getuid?.() !== 0) {
        log('PostGIS peers skipped: postgis is not installed and this is not root');
        return null;
      }
      const version = (await admin.query<{ v: string }>(`select current_setting('server_version_num') as v`))
        .rows[0]?.v;
      const pkg = `postgresql-${Math.floor(Number(version) / 10000)}-postgis-3`;
      log(`installing ${pkg} from Debian`);
      execSync(`apt-get install -y ${pkg} || (apt-get update && apt-get install -y ${pkg})`, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    }
    const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query('create extension if not exists postgis');
    const loadSeconds = await loadPoints(client, store, points, seed);
    await client.query(
      'create table if not exists bench_cluster_meta (points integer, seed integer, version integer, seconds float8)',
    );
    const meta = (
      await client.query<{ points: number; seed: number; version: number; seconds: number }>(
        'select points, seed, version, seconds from bench_cluster_meta',
      )
    ).rows[0];
    let clusterSeconds = 0;
    let clusterSecondsWhenMade = meta?.seconds ?? 0;
    if (
      loadSeconds > 0 ||
      meta?.points !== points ||
      meta.seed !== seed ||
      meta.version !== CLUSTERS_VERSION
    ) {
      clusterSeconds = await buildClusterTables(client);
      clusterSecondsWhenMade = clusterSeconds;
      await client.query('delete from bench_cluster_meta');
      await client.query('insert into bench_cluster_meta values ($1, $2, $3, $4)', [
        points,
        seed,
        CLUSTERS_VERSION,
        clusterSeconds,
      ]);
    } else log('reusing the precomputed PostGIS cluster tables');
    const size = await client.query<{ rows: string; bytes: string }>(
      `select coalesce(sum(c.reltuples), 0)::bigint as rows,
              coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
       from pg_class c where c.relkind = 'r' and c.relname like 'bench_cluster_z%'`,
    );
    return {
      url: url.toString(),
      loadSeconds,
      clusterSeconds,
      clusterSecondsWhenMade,
      clusterRows: Number(size.rows[0]?.rows ?? 0),
      clusterBytes: Number(size.rows[0]?.bytes ?? 0),
    };
  } finally {
    await client.end();
  }
}

/** Copies the store's points into bench_points (once per point count and seed); seconds spent. */
async function loadPoints(client: pg.Client, store: Store, points: number, seed: number): Promise<number> {
  await client.query('create table if not exists bench_meta (points integer, seed integer)');
  const meta = await client.query<{ points: number; seed: number }>('select points, seed from bench_meta');
  if (meta.rows[0]?.points === points && meta.rows[0]?.seed === seed) {
    log('reusing the PostGIS copy of the points');
    return 0;
  }
  if (store.raw.kind !== 'sqlite') throw new Error('the bench seeds SQLite');
  log('loading the points into PostGIS');
  const started = performance.now();
  await client.query('drop table if exists bench_points');
  await client.query(`create table bench_points (
    id text, grp text, type text, subtype text, title text, beamtype integer, promo smallint,
    lat double precision, lon double precision, geom geometry(Point, 3857))`);
  const iterator = store.raw.database
    .prepare('select id, supertype, type, subtype, title, beamtype, is_promo, lat, lon from points')
    .raw(true)
    .iterate() as Iterable<unknown[]>;
  let chunk: unknown[][] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const columns = Array.from({ length: 9 }, (_, c) => chunk.map((row) => row[c]));
    await client.query(
      `insert into bench_points (id, grp, type, subtype, title, beamtype, promo, lat, lon, geom)
       select id, grp, type, subtype, title, beamtype, promo, lat, lon,
              ST_Transform(ST_SetSRID(ST_MakePoint(lon, greatest(-85.05, least(85.05, lat))), 4326), 3857)
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::smallint[],
                   $8::float8[], $9::float8[]) as t(id, grp, type, subtype, title, beamtype, promo, lat, lon)`,
      columns,
    );
    chunk = [];
  };
  for (const row of iterator) {
    chunk.push(row);
    if (chunk.length >= 20_000) await flush();
  }
  await flush();
  await client.query('create index bench_points_geom on bench_points using gist (geom)');
  await client.query('analyze bench_points');
  await client.query('delete from bench_meta');
  await client.query('insert into bench_meta values ($1, $2)', [points, seed]);
  return (performance.now() - started) / 1000;
}

/**
 * The per-zoom cluster tables, bottom up: zoom 16's cells from the points, each lower zoom's from the
 * zoom above (four cells make one: counts and coordinate sums add up, so every centroid is the exact
 * mean of its points, as ours is). A cell's expansion zoom is the next zoom when it has more than one
 * child cell, else its one child's. Each serving table holds exactly the attributes ours draws (nulls
 * where a feature has none: ST_AsMVT leaves them out), is GiST-indexed, CLUSTERed and analysed.
 * Seconds spent.
 */
async function buildClusterTables(client: pg.Client): Promise<number> {
  log('precomputing the PostGIS cluster tables (a table per zoom 0-16)');
  const started = performance.now();
  const prefix = `case grp ${POINT_SUPERTYPES.map((s) => `when '${s}' then '/${prefixFor(s)}/'`).join(' ')} else '/${prefixFor('none')}/' end`;
  const single = (column: string) => `case when sum(n) = 1 then min(${column}) end as ${column}`;
  const singles = ['id', 'type', 'subtype', 'title', 'beamtype', 'promo', 'lat', 'lon'];
  for (let z = CLUSTER_MAX_ZOOM; z >= 0; z--) {
    const level = z + CELL_LEVELS;
    await client.query(`drop table if exists bench_cw_z${z}`);
    if (z === CLUSTER_MAX_ZOOM) {
      const cell = (2 * HALF_WORLD) / 2 ** level;
      const last = 2 ** level - 1;
      await client.query(`
        create table bench_cw_z${z} as
        select grp, cx, cy, count(*)::int as n, sum(x) as sx, sum(y) as sy, ${CLUSTER_MAX_ZOOM + 1} as expansion,
               ${singles.map((c) => `case when count(*) = 1 then min(${c}) end as ${c}`).join(', ')}
        from (select grp, id, type, subtype, title, beamtype, promo, lat, lon, ST_X(geom) as x, ST_Y(geom) as y,
                     least(${last}, greatest(0, floor((ST_X(geom) + ${HALF_WORLD}) / ${cell})))::bigint as cx,
                     least(${last}, greatest(0, floor((${HALF_WORLD} - ST_Y(geom)) / ${cell})))::bigint as cy
              from bench_points) p
        group by grp, cx, cy`);
    } else {
      await client.query(`
        create table bench_cw_z${z} as
        select grp, cx / 2 as cx, cy / 2 as cy, sum(n)::int as n, sum(sx) as sx, sum(sy) as sy,
               case when count(*) > 1 then ${z + 1} else min(expansion) end as expansion,
               ${singles.map(single).join(', ')}
        from bench_cw_z${z + 1}
        group by grp, cx / 2, cy / 2`);
    }
  }
  for (let z = 0; z <= CLUSTER_MAX_ZOOM; z++) {
    const level = z + CELL_LEVELS;
    await client.query(`drop table if exists bench_cluster_z${z}`);
    await client.query(`
      create table bench_cluster_z${z} as
      select grp,
             ST_SetSRID(ST_MakePoint(sx / n, sy / n), 3857)::geometry(Point, 3857) as geom,
             case when n > 1 then true end as cluster,
             case when n > 1 then ((cy * ${2 ** level} + cx) * 32 + ${level}) end as cluster_id,
             case when n > 1 then n end as point_count,
             case when n > 1 then
               case when n >= 10000 then round(n / 1000.0)::bigint::text || 'k'
                    when n >= 1000 then (round(n / 100.0) / 10)::float8::text || 'k'
                    else n::text end
             end as point_count_abbreviated,
             case when n > 1 then expansion end as expansion_zoom,
             grp as supertype,
             id as appnetid, round(lat::numeric, 6)::float8 as lat, round(lon::numeric, 6)::float8 as lon,
             type as businesstype, coalesce(subtype, '') as subtype, title as name, title,
             case when n = 1 then ${prefix} || id end as clickurl, beamtype, promo
      from bench_cw_z${z}`);
    await client.query(`create index bench_cluster_z${z}_geom on bench_cluster_z${z} using gist (geom)`);
    await client.query(`cluster bench_cluster_z${z} using bench_cluster_z${z}_geom`);
    await client.query(`analyze bench_cluster_z${z}`);
  }
  for (let z = 0; z <= CLUSTER_MAX_ZOOM; z++) await client.query(`drop table if exists bench_cw_z${z}`);
  const seconds = (performance.now() - started) / 1000;
  log(`cluster tables built in ${seconds.toFixed(0)} s`);
  return seconds;
}

/** Tile address to the SQL of the precomputed peer: one statement per zoom table. */
export function clusterTileQuery(z: number): { name: string; text: string } {
  const table = z <= CLUSTER_MAX_ZOOM ? `bench_cluster_z${z}` : null;
  if (table === null) {
    // beyond the cluster zooms every point is drawn on its own, as ours does
    return {
      name: 'tile_points',
      text: `
        with b as (select ST_TileEnvelope($1, $2, $3) as env),
        m as (
          select grp as supertype, ST_AsMVTGeom(geom, b.env, 4096, 0, false) as geom, id as appnetid,
                 round(lat::numeric, 6)::float8 as lat, round(lon::numeric, 6)::float8 as lon,
                 type as businesstype, coalesce(subtype, '') as subtype, title as name, title, beamtype, promo
          from bench_points, b where geom && b.env
        )
        select coalesce(string_agg(mvt, ''::bytea), ''::bytea) as tile
        from (select ST_AsMVT(m.*, m.supertype, 4096, 'geom') as mvt from m group by m.supertype) layers`,
    };
  }
  return {
    name: `tile_z${z}`,
    text: `
      with b as (select ST_TileEnvelope($1, $2, $3) as env),
      m as (
        select supertype, ST_AsMVTGeom(geom, b.env, 4096, 0, false) as geom, cluster, cluster_id, point_count,
               point_count_abbreviated, expansion_zoom, appnetid, lat, lon, businesstype, subtype, name, title,
               clickurl, beamtype, promo
        from ${table}, b where geom && b.env
      )
      select coalesce(string_agg(mvt, ''::bytea), ''::bytea) as tile
      from (select ST_AsMVT(m.*, m.supertype, 4096, 'geom') as mvt from m group by m.supertype) layers`,
  };
}

/** The earlier peer: clusters the tile's points on every request (8 x 8 cells a tile, like ours). */
export const ON_THE_FLY_QUERY = `
  with b as (select ST_TileEnvelope($1, $2, $3) as env),
  cells as (
    select grp, count(*) as point_count, ST_Centroid(ST_Collect(geom)) as c, min(id) as appnetid, min(title) as title
    from bench_points, b where geom && b.env
    group by grp, ST_SnapToGrid(geom, $4)
  ),
  mvtgeom as (
    select grp, point_count, appnetid, title, ST_AsMVTGeom(c, b.env, 4096, 0, true) as geom from cells, b
  )
  select coalesce(string_agg(mvt, ''::bytea), ''::bytea) as tile
  from (select ST_AsMVT(m.*, m.grp, 4096, 'geom') as mvt from mvtgeom m group by m.grp) layers`;

/** The on-the-fly peer's grid step at zoom z: 8 cells across a tile through zoom 16, a pixel above. */
export function onTheFlyCell(z: number): number {
  const tile = (2 * HALF_WORLD) / 2 ** z;
  return z <= CLUSTER_MAX_ZOOM ? tile / 8 : tile / 4096;
}
