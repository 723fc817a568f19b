/**
 * The owner's website (issue 20; social §2-§5, §7, §9): the names, limits and rules that the server
 * enforces and the editor checks before it sends, in one place so the two never disagree.
 *
 * A point's site is WEBSITE_PART_COUNT sections ("parts"), numbered from 1. Each part switches on and
 * off, has a title, a description and line1-line10, and up to WEBSITE_PICS_PER_PART pictures in slots
 * 1-10. Parts 1-5 have a role: where the owner wrote nothing the site fills them from the point itself
 * (its description, opening hours, next events, latest posts, best reviews); part 6 is the owner's own.
 */

/** How many parts a site has; part_idx is 1..WEBSITE_PART_COUNT. */
export const WEBSITE_PART_COUNT = 6;
/** Social §9: up to 10 pictures per website part; pic_idx is 1..10. */
export const WEBSITE_PICS_PER_PART = 10;

/** Social §3: the part's text fields, in the order a part shows them. */
export const WEBSITE_LINE_FIELDS = [
  'line1',
  'line2',
  'line3',
  'line4',
  'line5',
  'line6',
  'line7',
  'line8',
  'line9',
  'line10',
] as const;
export const WEBSITE_FIELDS = ['title', 'description', ...WEBSITE_LINE_FIELDS] as const;
export type WebsiteField = (typeof WEBSITE_FIELDS)[number];

/**
 * Social §5: each field has its own maximum length, in characters (code points). A title is a
 * heading (one line on a phone at 80); a description is a few paragraphs; a line is one sentence or
 * a price-list row.
 */
export const WEBSITE_FIELD_MAX_CHARS: Readonly<Record<WebsiteField, number>> = {
  title: 80,
  description: 2000,
  line1: 200,
  line2: 200,
  line3: 200,
  line4: 200,
  line5: 200,
  line6: 200,
  line7: 200,
  line8: 200,
  line9: 200,
  line10: 200,
};

/** Social §5: the message an overrun shows; saving is blocked while any field shows it. */
export const WEBSITE_MAX_LENGTH_MESSAGE = 'Max length for this field has been exceeded';

/** Social §8: how long the editor's error area shows an error: 3 s, and 30 s for a section's switch. */
export const WEBSITE_ERROR_SHOWN_MS = 3000;
export const WEBSITE_SECTION_ERROR_SHOWN_MS = 30_000;

/** What each part is for: where the owner wrote nothing, parts with a source fill themselves from it. */
export const WEBSITE_PART_ROLES = ['welcome', 'hours', 'events', 'posts', 'reviews', 'custom'] as const;
export type WebsitePartRole = (typeof WEBSITE_PART_ROLES)[number];
/** The heading a part shows when the owner gave it no title. */
export const WEBSITE_DEFAULT_TITLES: Readonly<Record<WebsitePartRole, string>> = {
  welcome: 'Welcome',
  hours: 'Opening hours',
  events: 'Next events',
  posts: 'Latest news',
  reviews: 'What our guests say',
  custom: 'More about us',
};
/**
 * A part nobody has switched yet is on when it has something to fill itself with (parts 1-5): every
 * business gets a site before its owner opens the editor. The owner's own part starts off.
 */
export function defaultEnabled(role: WebsitePartRole): boolean {
  return role !== 'custom';
}

export function roleOfPart(partIdx: number): WebsitePartRole {
  return WEBSITE_PART_ROLES[partIdx - 1] ?? 'custom';
}

export function isWebsiteField(name: string): name is WebsiteField {
  return (WEBSITE_FIELDS as readonly string[]).includes(name);
}

export function isPartIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= WEBSITE_PART_COUNT;
}

export function isPictureIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= WEBSITE_PICS_PER_PART;
}

/** Length as a person counts it: an emoji is one character, not two UTF-16 units. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

export function isTooLong(field: WebsiteField, value: string): boolean {
  return charCount(value) > WEBSITE_FIELD_MAX_CHARS[field];
}

/** One field change as the call carries it (social §7). */
export interface WebsiteFieldChange {
  fieldname: string;
  fieldval: string;
}

/** Why a list of field changes is refused, or null when it is fine. */
export type FieldsProblem =
  | { kind: 'empty' }
  | { kind: 'unknown'; name: string }
  | { kind: 'twice'; name: string }
  | { kind: 'tooLong'; name: WebsiteField; max: number };

/**
 * Social §5: field names are title, description or line1-line10, each used once, each within its
 * length. Pure, shared: the server answers the first problem, the editor blocks saving on it.
 */
export function fieldsProblem(fields: readonly WebsiteFieldChange[]): FieldsProblem | null {
  if (fields.length === 0) return { kind: 'empty' };
  const seen = new Set<string>();
  for (const { fieldname } of fields) {
    if (!isWebsiteField(fieldname)) return { kind: 'unknown', name: fieldname };
    if (seen.has(fieldname)) return { kind: 'twice', name: fieldname };
    seen.add(fieldname);
  }
  for (const { fieldname, fieldval } of fields) {
    const name = fieldname as WebsiteField;
    if (isTooLong(name, fieldval)) return { kind: 'tooLong', name, max: WEBSITE_FIELD_MAX_CHARS[name] };
  }
  return null;
}

/**
 * Social §5: only changed fields are sent; an empty list means nothing changed (the editor cancels).
 * Text is compared after trimming line ends, as the server stores it.
 */
export function changedFields(
  before: Partial<Record<WebsiteField, string | null>>,
  after: Partial<Record<WebsiteField, string>>,
): WebsiteFieldChange[] {
  const changes: WebsiteFieldChange[] = [];
  for (const name of WEBSITE_FIELDS) {
    const next = after[name];
    if (next === undefined) continue;
    if (normaliseText(next) !== normaliseText(before[name] ?? ''))
      changes.push({ fieldname: name, fieldval: next });
  }
  return changes;
}

/** What is stored: line breaks as \n, no trailing space; an empty text is no text (null). */
export function normaliseText(value: string): string {
  return value.replace(/\r\n?/g, '\n').trim();
}

/** A picture of a part, as the site shows it: the post pipeline's sized variants. */
export interface WebsitePicture {
  pic_idx: number;
  /** WebP, 1280 on the long side at most */
  url: string;
  /** WebP, 640 wide at most: what a phone loads */
  small: string | null;
  /** JPEG at the detail size, for browsers without WebP */
  fallback: string | null;
  width: number | null;
  height: number | null;
}

/** What a part holds as the owner wrote it. */
export interface WebsitePartData {
  part_idx: number;
  role: WebsitePartRole;
  enabled: boolean;
  fields: Record<WebsiteField, string | null>;
  pictures: WebsitePicture[];
}

/** What the site fills a part with where the owner wrote nothing (read from the point's other slices). */
export interface WebsiteAutoContent {
  description: string | null;
  hours: string | null;
  events: { title: string; start_date: number; url: string | null }[];
  posts: { title: string; description: string; url: string; image: string | null }[];
  reviews: { stars: number; text: string; author: string }[];
}

/** GET /v1/xpoint/{id}/website: the whole site as the viewer and the editor render it. */
export interface WebsiteView {
  xpointid: string;
  title: string;
  version: number;
  /** the viewer controls the point: the editor and the download are offered. */
  editable: boolean;
  parts: WebsitePartData[];
  auto: WebsiteAutoContent;
  time_zone_name: string | null;
}

/** The answer of every website write: the spec's `status: 'success'`, the new version and the part. */
export interface WebsiteWriteResult {
  status: 'success';
  xpointid: string;
  version: number;
  part: WebsitePartData;
}

/** The pictures of a part in the order the site shows them (by slot). */
export function orderedPictures(pictures: readonly WebsitePicture[]): WebsitePicture[] {
  return [...pictures].sort((a, b) => a.pic_idx - b.pic_idx);
}

/** The first free slot of a part, or null when all 10 are taken. */
export function firstFreeSlot(pictures: readonly WebsitePicture[]): number | null {
  const taken = new Set(pictures.map((p) => p.pic_idx));
  for (let i = 1; i <= WEBSITE_PICS_PER_PART; i++) if (!taken.has(i)) return i;
  return null;
}

/** Whether the owner wrote anything in the part (else, for parts with a role, it fills itself). */
export function hasOwnText(part: WebsitePartData): boolean {
  return WEBSITE_FIELDS.some((name) => (part.fields[name] ?? '').trim() !== '');
}

/** The owner's lines that have text, in order. */
export function partLines(part: WebsitePartData): string[] {
  return WEBSITE_LINE_FIELDS.map((name) => part.fields[name] ?? '').filter((line) => line.trim() !== '');
}

/** A part with nothing written and nothing pictured. */
export function emptyPart(partIdx: number): WebsitePartData {
  const role = roleOfPart(partIdx);
  return {
    part_idx: partIdx,
    role,
    enabled: defaultEnabled(role),
    fields: Object.fromEntries(WEBSITE_FIELDS.map((name) => [name, null])) as Record<
      WebsiteField,
      string | null
    >,
    pictures: [],
  };
}

/** The calls (social §7, and the reorder this project adds). */
export const WEBSITE_CALLS = {
  section: '/v1/xpoint/updatewebsitesection',
  parts: '/v1/xpoint/updatewebsiteparts',
  deletePic: '/v1/xpoint/deletewebsitepartpic',
  uploadPic: '/v1/xpoint/updatewebsitepartpic',
  reorderPics: '/v1/xpoint/reorderwebsitepartpics',
} as const;
/** The multipart upload's file part (social §7). */
export const WEBSITE_PIC_FILE_FIELD = 'imgFile';
export const websiteViewPath = (id: string) => `/v1/xpoint/${encodeURIComponent(id)}/website`;
export const websiteZipPath = (id: string) => `/v1/xpoint/${encodeURIComponent(id)}/website.zip`;
