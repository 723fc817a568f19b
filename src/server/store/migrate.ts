import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './dialect';
import * as m0001 from './migrations/0001_initial';
import * as m0002 from './migrations/0002_sessions';
import * as m0003 from './migrations/0003_point_changes';
import * as m0004 from './migrations/0004_callbacks';
import * as m0005 from './migrations/0005_point_writes';
import * as m0006 from './migrations/0006_live';
import * as m0007 from './migrations/0007_signin_throttle';
import * as m0008 from './migrations/0008_claims_and_consulting';
import * as m0009 from './migrations/0009_change_notify';
import * as m0010 from './migrations/0010_posts';
import * as m0011 from './migrations/0011_jobs';
import * as m0012 from './migrations/0012_posts_list_indexes';
import * as m0013 from './migrations/0013_reviews_replies';
import * as m0014 from './migrations/0014_like_counts';
import * as m0015 from './migrations/0015_comments_keyset';
import * as m0016 from './migrations/0016_notifications';
import * as m0017 from './migrations/0017_city_feed_index';
import * as m0018 from './migrations/0018_city_pages';
import * as m0019 from './migrations/0019_websites';
import * as m0020 from './migrations/0020_chat';
import * as m0021 from './migrations/0021_bookings';
import * as m0022 from './migrations/0022_web_vitals';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** The one migration set, in order. Names never change once released. */
const MIGRATIONS: ReadonlyArray<[name: string, migration: DialectMigration]> = [
  ['0001_initial', m0001],
  ['0002_sessions', m0002],
  ['0003_point_changes', m0003],
  ['0004_callbacks', m0004],
  ['0005_point_writes', m0005],
  ['0006_live', m0006],
  ['0007_signin_throttle', m0007],
  ['0008_claims_and_consulting', m0008],
  ['0009_change_notify', m0009],
  ['0010_posts', m0010],
  ['0011_jobs', m0011],
  ['0012_posts_list_indexes', m0012],
  ['0013_reviews_replies', m0013],
  ['0014_like_counts', m0014],
  ['0015_comments_keyset', m0015],
  ['0016_notifications', m0016],
  ['0017_city_feed_index', m0017],
  ['0018_city_pages', m0018],
  ['0019_websites', m0019],
  ['0020_chat', m0020],
  ['0021_bookings', m0021],
  ['0022_web_vitals', m0022],
];

class InlineProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      MIGRATIONS.map(([name, migration]) => [
        name,
        { up: (db: Kysely<unknown>) => migration.up(db, this.dialect) },
      ]),
    );
  }
}

/** Applies every pending migration; each runs in a transaction, so a kill mid-way leaves none half-done. */
export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  // On PostgreSQL the migration tables live in the connection's own schema: Kysely otherwise looks for
  // them across every schema, and two stores in one database (tests, tenants) would see each other's.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: new InlineProvider(dialect),
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // Kysely finds its tables by listing every schema's tables and asking has_schema_privilege and
    // pg_get_serial_sequence of each: a schema or table another store drops in that moment (tests and
    // tenants share a database) fails the listing with 3F000 or 42P01 naming something that is not ours.
    // Nothing was applied then; list again.
    if (!isOtherSchemaGone(error, migrationTableSchema) || attempt === MIGRATE_ATTEMPTS)
      throw error instanceof Error ? error : new Error(String(error));
  }
}

const MIGRATE_ATTEMPTS = 20;

function isOtherSchemaGone(error: unknown, ownSchema: string | undefined): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (!(error instanceof Error) || (code !== '3F000' && code !== '42P01')) return false;
  return !ownSchema || !error.message.includes(`"${ownSchema}"`);
}
