import type { CityOption } from '../../../shared/api/home';
import type { Store } from '../../store/store';
import { foldName } from '../cities/queries';

/**
 * The city autocomplete's index (POST /v1/locations/startingwith, social §7, §9): every loaded place
 * (~112,000, immutable once loaded at start) in memory, its folded name ('São Paulo' -> 'sao-paulo')
 * in one sorted array, so a typed prefix is a range found by two binary searches, and the range's
 * most populous ten are picked in one pass over typed arrays. Names without a Latin letter or digit
 * (Cyrillic, Greek, CJK) are keyed by their lower-cased text instead, so 'окт' finds Октябрьский.
 *
 * Why memory and not a store index: the table never changes after loading, the index is ~12 MB, and
 * it answers the same on SQLite and PostgreSQL whatever the database's collation (a linguistic
 * collation makes a PostgreSQL prefix range miss rows, cities/queries.ts); bench:feeds holds it
 * against a SQLite LIKE prefix query and PostgreSQL in the same run.
 */

interface Snapshot {
  /** folded keys, sorted (JavaScript's code-unit order, which prefixEnd relies on). */
  keys: string[];
  /** the row of each key. */
  rows: Uint32Array;
  population: Float64Array;
  options: CityOption[];
  byId: Map<number, CityOption>;
}

/** The key of a name, or of typed text: folded, leading dashes off; non-Latin text lower-cased. */
export function cityKey(text: string): string {
  const folded = foldName(text).replace(/^-+/, '');
  if (/[a-z0-9]/.test(folded)) return folded;
  return text.normalize('NFC').trim().toLocaleLowerCase();
}

/** The smallest string after every string that starts with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The first index whose key is >= `key`. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class CityIndex {
  private snapshot: Promise<Snapshot> | null = null;

  constructor(private readonly store: Store) {}

  private load(): Promise<Snapshot> {
    if (!this.snapshot) {
      this.snapshot = this.build().then(
        (built) => {
          // an empty table (cities not loaded yet) is read again on the next call
          if (built.options.length === 0) this.snapshot = null;
          return built;
        },
        (error: unknown) => {
          this.snapshot = null;
          throw error;
        },
      );
    }
    return this.snapshot;
  }

  private async build(): Promise<Snapshot> {
    const rows = await this.store.db
      .selectFrom('cities')
      .select(['id', 'city', 'city_forurl', 'state', 'country', 'lat', 'lon', 'population'])
      .execute();
    const options: CityOption[] = [];
    const population = new Float64Array(rows.length);
    const keyed: { key: string; row: number }[] = [];
    for (const row of rows) {
      const option: CityOption = {
        id: Number(row.id),
        city: row.city,
        country: row.country,
        state: row.state,
        osm_id: null,
        lat: Number(row.lat),
        lon: Number(row.lon),
        city_forurl: row.city_forurl,
      };
      // social §5: an option without city_forurl cannot be offered
      if (option.city_forurl.trim() === '') continue;
      population[options.length] = Number(row.population);
      keyed.push({ key: cityKey(row.city), row: options.length });
      options.push(option);
    }
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return {
      keys: keyed.map((k) => k.key),
      rows: Uint32Array.from(keyed, (k) => k.row),
      population,
      options,
      byId: new Map(options.map((o) => [o.id, o])),
    };
  }

  /** Warms the index (after start; requests do not wait for it). */
  async ready(): Promise<number> {
    return (await this.load()).options.length;
  }

  /** The city with this id, or undefined. */
  async byId(id: number): Promise<CityOption | undefined> {
    return (await this.load()).byId.get(id);
  }

  /** Places whose name starts with `text` (case, accents and punctuation ignored), most populous first. */
  async startingWith(text: string, limit: number): Promise<CityOption[]> {
    return startingWithIn(await this.load(), text, limit);
  }

  /** The `count` most populous places. */
  async mostPopulous(count: number): Promise<CityOption[]> {
    const snapshot = await this.load();
    return topOf(snapshot, 0, snapshot.keys.length, count);
  }
}

function startingWithIn(snapshot: Snapshot, text: string, limit: number): CityOption[] {
  const typed = text
    .normalize('NFC')
    .replace(/\p{C}+/gu, '')
    .trimStart();
  if (!/[\p{L}\p{N}]/u.test(typed) || limit < 1) return [];
  const prefix = cityKey(typed);
  if (prefix === '') return [];
  const from = lowerBound(snapshot.keys, prefix);
  const to = lowerBound(snapshot.keys, prefixEnd(prefix));
  return topOf(snapshot, from, to, limit);
}

/** The `count` most populous rows of keys[from, to), ties by id; one pass, a small sorted buffer. */
function topOf(snapshot: Snapshot, from: number, to: number, count: number): CityOption[] {
  const best: number[] = [];
  const better = (a: number, b: number) => {
    const pa = snapshot.population[a] as number;
    const pb = snapshot.population[b] as number;
    return (
      pa > pb ||
      (pa === pb && (snapshot.options[a] as CityOption).id < (snapshot.options[b] as CityOption).id)
    );
  };
  for (let i = from; i < to; i++) {
    const row = snapshot.rows[i] as number;
    if (best.length === count && !better(row, best[count - 1] as number)) continue;
    let at = best.length === count ? count - 1 : best.length;
    best[at] = row;
    while (at > 0 && better(row, best[at - 1] as number)) {
      best[at] = best[at - 1] as number;
      best[at - 1] = row;
      at--;
    }
  }
  return best.map((row) => snapshot.options[row] as CityOption);
}
