/**
 * Listing supertypes (map-and-search §1, §3). `none` and `all` are pseudo-values: `none` means
 * "unknown" (prefix `x`), `all` means "no filter" and is removed from search data (§5).
 */
/** Supertypes stored in the points table (events and posts have tables of their own). */
export const POINT_SUPERTYPES = [
  'business',
  'poi',
  'virtualstore',
  'service',
  'experience',
  'rental',
  'helprequest',
  'incident',
] as const;
export type PointSupertype = (typeof POINT_SUPERTYPES)[number];

/**
 * What the map and search index: every point supertype, then events, then posts (issue 17: posts
 * with a place). The order is the one the tile layer groups and the search documents' supertype codes
 * number by; new supertypes go at the end, so the numbers of the others never change.
 */
export const MAPPED_SUPERTYPES = [...POINT_SUPERTYPES, 'event', 'post'] as const;
export type MappedSupertype = (typeof MAPPED_SUPERTYPES)[number];

/** Every listing supertype (§1) is on the map and in search. */
export const LISTING_SUPERTYPES = MAPPED_SUPERTYPES;

export type ListingSupertype = (typeof LISTING_SUPERTYPES)[number];
export type Supertype = ListingSupertype | 'none' | 'all';

/** Supertypes a visitor may create through the add-new flow (§2 `/new`). */
export const ADD_NEW_SUPERTYPES = [
  'virtualstore',
  'service',
  'experience',
  'rental',
] as const satisfies readonly PointSupertype[];

/** `service` is also called `meonmap` (a personal service provider) in the spec and its routes. */
export const SUPERTYPE_ALIASES: Readonly<Record<string, Supertype>> = { meonmap: 'service' };

/** Id prefixes in addresses (§2, §3): `/b/{id}` is a business, `/x/{id}` an unknown point. */
export const SUPERTYPE_PREFIX = {
  business: 'b',
  poi: 'p',
  virtualstore: 's',
  service: 'm',
  helprequest: 'h',
  incident: 'i',
  experience: 'exp',
  rental: 'rent',
  event: 'e',
  none: 'x',
} as const satisfies Partial<Record<Supertype, string>>;

export type PointPrefix = (typeof SUPERTYPE_PREFIX)[keyof typeof SUPERTYPE_PREFIX];

const PREFIX_TO_SUPERTYPE = new Map<string, Supertype>(
  Object.entries(SUPERTYPE_PREFIX).map(([supertype, prefix]) => [prefix, supertype as Supertype]),
);

export function isSupertype(value: string): value is Supertype {
  return value === 'none' || value === 'all' || (LISTING_SUPERTYPES as readonly string[]).includes(value);
}

export function isPointSupertype(value: string): value is PointSupertype {
  return (POINT_SUPERTYPES as readonly string[]).includes(value);
}

/** Normalises a supertype name from an address or a form (`meonmap` -> `service`); null if unknown. */
export function parseSupertype(value: string): Supertype | null {
  const lower = value.trim().toLowerCase();
  const aliased = SUPERTYPE_ALIASES[lower] ?? lower;
  return isSupertype(aliased) ? aliased : null;
}

/** The address prefix for a supertype; unknown and pseudo-values map to `x`. */
export function prefixFor(supertype: Supertype | string): string {
  return (SUPERTYPE_PREFIX as Record<string, string>)[supertype] ?? SUPERTYPE_PREFIX.none;
}

export function supertypeForPrefix(prefix: string): Supertype | null {
  return PREFIX_TO_SUPERTYPE.get(prefix) ?? null;
}
