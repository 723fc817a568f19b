import { BeamFlag } from '../../shared/domain/beams';
import { findCategory } from '../../shared/domain/categories';
import { MAPPED_SUPERTYPES } from '../../shared/domain/supertypes';
import { postCategoryName } from '../../shared/map/categories';
import { isCoordinateAddress, tokenize } from './fold';

/**
 * One searchable thing as the index keeps it: a point, an event (supertype 'event') or a post with a
 * place (supertype 'post'). The store is the source of truth; this is the copy the index needs to
 * match, filter, rank and answer.
 */
export interface SearchDoc {
  id: string;
  kind: DocKind;
  supertype: string;
  type: string;
  subtype: string | null;
  title: string;
  address: string | null;
  lat: number;
  lon: number;
  /** BeamFlag bit set. */
  beamtype: number;
  promo: number;
  /** 0-100, or null when nobody rated it. */
  rating: number | null;
  /** visits this month: the rank of a hot point. */
  statsMonth: number;
  cover: string | null;
  health: number;
  /** events: start and end of the whole event, and of its first opening interval (spec §4). */
  startDate: number | null;
  /** events: when the event ends; posts: when the post expires (null: never). Not found after it. */
  endDate: number | null;
  firstStart: number | null;
  firstEnd: number | null;
  /** events: the point hosting it (events.xpoint_id). */
  hostId: string | null;
}

export const DOC_POINT = 0;
export const DOC_EVENT = 1;
export const DOC_POST = 2;
export type DocKind = typeof DOC_POINT | typeof DOC_EVENT | typeof DOC_POST;

/** A document with every field empty: a scratch to fill, or a base to spread fields over. */
export const EMPTY_DOC: SearchDoc = {
  id: '',
  kind: DOC_POINT,
  supertype: 'business',
  type: '',
  subtype: null,
  title: '',
  address: null,
  lat: 0,
  lon: 0,
  beamtype: 0,
  promo: 0,
  rating: null,
  statsMonth: 0,
  cover: null,
  health: 0,
  startDate: null,
  endDate: null,
  firstStart: null,
  firstEnd: null,
  hostId: null,
};

/** Supertype codes stored per document; a filter compares numbers. */
export const DOC_SUPERTYPES = MAPPED_SUPERTYPES;
const SUPERTYPE_CODE = new Map<string, number>(DOC_SUPERTYPES.map((name, i) => [name, i]));
export function supertypeCode(supertype: string): number {
  return SUPERTYPE_CODE.get(supertype) ?? -1;
}

/**
 * The static rank of a document, higher first: promoted, then hot, then rating in half stars. Every
 * query ranks by it right after exact and prefix title matches (see segment.ts), so documents are
 * stored in this order and a scan can stop at a level boundary once it has enough results.
 */
export const LEVELS = 44;
export function levelOf(promo: number, beamtype: number, rating: number | null): number {
  const halfStars =
    rating === null || !Number.isFinite(rating) ? 0 : Math.max(0, Math.min(10, Math.round(rating / 10)));
  return (promo ? 22 : 0) + ((beamtype & BeamFlag.hot) !== 0 ? 11 : 0) + halfStars;
}

/** supertype -> type -> subtype -> words: a few hundred entries, looked up once per document. */
const typeWordCache = new Map<string, Map<string, Map<string | null, readonly string[]>>>();

/**
 * The words of a type: its display name and its key ('alcohol' is shown as 'Liquor Store': both
 * 'liquor' and 'alcohol' find it), the subtype ('italian'), and the type's terms, the other words
 * people use for it ('coffee', 'espresso' and 'coffee shop' for a café; 'drugstore' for a pharmacy).
 * They are words of the document like its address, so they rank after title matches.
 */
export function typeWords(supertype: string, type: string, subtype: string | null): readonly string[] {
  let byType = typeWordCache.get(supertype);
  if (!byType) typeWordCache.set(supertype, (byType = new Map()));
  let bySubtype = byType.get(type);
  if (!bySubtype) byType.set(type, (bySubtype = new Map()));
  let words = bySubtype.get(subtype);
  if (!words) {
    const category = supertype === 'post' ? undefined : findCategory(supertype, type);
    const name = (supertype === 'post' ? postCategoryName(type) : category?.name) ?? '';
    const terms = category?.terms?.flatMap((term) => tokenize(term)) ?? [];
    words = [...new Set([...tokenize(name), ...tokenize(type), ...tokenize(subtype), ...terms])];
    bySubtype.set(subtype, words);
  }
  return words;
}

/** Words of the address; coordinates ('40.7,-74.0') are not words anyone types. */
export function addressWords(address: string | null): string[] {
  return isCoordinateAddress(address) ? [] : tokenize(address);
}

const APOSTROPHES = /['\u2019`]/g;

/**
 * "Joe's" is indexed as 'joe' and 's', and people type 'joes': names with apostrophes also get their
 * words written without them.
 */
export function apostropheWords(title: string): string[] {
  if (!title.includes("'") && !title.includes('\u2019') && !title.includes('`')) return [];
  const plain = tokenize(title);
  return tokenize(title.replace(APOSTROPHES, '')).filter((word) => !plain.includes(word));
}

/** At most this many title words are indexed (and compared for exact and prefix title matches). */
export const MAX_TITLE_WORDS = 32;
/** At most this many other words (type, address) per document. */
export const MAX_OTHER_WORDS = 48;
