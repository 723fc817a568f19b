import { z } from 'zod';
import { domainIssue, formBoolean, formNumber, formText, withFieldErrors } from './contract';
import { userText } from './text';

/**
 * Contracts of the two search calls (map-and-search §7): POST /v1/app/searchsuggestions (form fields
 * or JSON) and POST /v1/webonly/pagedmapsearch (JSON). The server parses requests with
 * parseSuggestionRequest / parsePagedSearchRequest (errors are the catalogue's 5xxx entries); the web
 * app parses answers with the response schemas.
 */

/** §9: at most 10 suggestions, at least 1 character, addresses truncated to 140 characters. */
export const SUGGESTIONS_MAX = 10;
export const QUERY_MIN_LENGTH = 1;
export const SUGGESTION_ADDRESS_MAX_LENGTH = 140;
/** Longer queries are refused: nobody types this much into a search box. */
export const QUERY_MAX_LENGTH = 200;
/** §9: page sizes; the default; the fallback for any other size. */
export const PAGE_SIZES = [12, 24, 48, 96] as const;
export const PAGE_SIZE_DEFAULT = 12;
export const PAGE_SIZE_FALLBACK = 24;
/** Results past this rank are not served (pages beyond it are empty), so no page costs more than this window. */
export const RESULT_WINDOW = 10_000;
/**
 * Supertypes a search may be limited to (§2: the `supertype=` prefix of keywords; `post` from §1 and
 * §3, issue 17: posts with a place).
 */
export const SEARCH_SUPERTYPES = [
  'service',
  'virtualstore',
  'poi',
  'business',
  'experience',
  'rental',
  'event',
  'helprequest',
  'incident',
  'post',
] as const;
export type SearchSupertype = (typeof SEARCH_SUPERTYPES)[number];

export const latLonSchema = z.object({ lat: z.number(), lon: z.number() });
export type LatLon = z.infer<typeof latLonSchema>;

/** The area searched: southwest and northeast corners; west > east crosses the antimeridian. */
export interface SearchBounds {
  southwest: LatLon;
  northeast: LatLon;
}

/** An event a suggestion points at: running now, or starting within 120 minutes (§4). */
export const eventRefSchema = z.object({
  id: z.string(),
  title: z.string(),
  start_date: z.number(),
  end_date: z.number(),
});
export type EventRef = z.infer<typeof eventRefSchema>;

/** §3 search suggestion. */
export const suggestionSchema = z.object({
  id: z.string(),
  lon: z.number(),
  lat: z.number(),
  title: z.string(),
  businesstype: z.string(),
  subtype: z.string(),
  hotpointclickurl: z.string(),
  address: z.string(),
  /** visits this month for hot points, 0 otherwise. */
  hotpointrank: z.number(),
  /** 1 when the point's owner is open to chat now, 0 otherwise. */
  chatrank: z.number(),
  currentevent: eventRefSchema.nullable(),
  upcomingevent: eventRefSchema.nullable(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;
export const suggestionsResponseSchema = z.array(suggestionSchema);

/** §3 marker. */
export const markerSchema = z.object({
  id: z.string(),
  lng: z.number(),
  lat: z.number(),
  title: z.string(),
  type: z.string(),
  subtype: z.string(),
  classes: z.string(),
  select: z.boolean(),
  data: z.object({ hotpointclickurl: z.string() }),
});
export type Marker = z.infer<typeof markerSchema>;

/** §3 search result. */
export const searchResultSchema = z.object({
  marker: markerSchema,
  supertype: z.string(),
  address: z.string(),
  cover_url: z.string().nullable(),
  /** average rating as stars (0-5, one decimal), or null when nobody rated it. */
  stars_rating: z.number().nullable(),
  healthdata: z.object({ status: z.number() }),
  /** events: when it starts (epoch ms); null for points. */
  start_date: z.number().nullable(),
  name: z.string(),
  class: z.string(),
  subclass: z.string(),
  beamtype: z.number(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** §3 page response. */
export const pagedSearchResponseSchema = z.object({
  results: z.array(searchResultSchema),
  /** matches in all pages (an estimate for very broad queries over large areas). */
  posts_total: z.number(),
  /**
   * false when posts_total is an estimate (said as "about 2,000"): never less than the pages shown
   * hold, and the same for every page of the query, so the last page holds still.
   */
  posts_total_exact: z.boolean(),
  page_current: z.number(),
  page_total: z.number(),
  page_size: z.number(),
});
export type PagedSearchResponse = z.infer<typeof pagedSearchResponseSchema>;

// --- request contracts -----------------------------------------------------------------------------
// Suggestions come as form fields or JSON (§7), so every field is read leniently: numbers and
// booleans from text, a repeated form field as its value, `southwest[lat]` keys nested. Each field's
// problem answers with its own 5xxx entry (withFieldErrors).

const CORNER_SHAPE = 'must be {lat, lon} or "lat,lon".';

/**
 * A corner: `{lat, lon}` (or `lng`) in JSON, `southwest[lat]=..&southwest[lon]=..` in a form, or a
 * 'lat,lon' string. Checked here, in the order the API always answered, so that the first problem
 * named is the same as before; the schema after it documents the shape.
 */
function readCorner(value: unknown, ctx: z.RefinementCtx): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  const bad = (reason: string) => {
    ctx.addIssue(domainIssue('searchBoundsInvalid', { reason }));
    return z.NEVER;
  };
  let lat: unknown;
  let lon: unknown;
  if (typeof value === 'string') {
    const parts = value.split(',');
    if (parts.length !== 2) return bad(CORNER_SHAPE);
    [lat, lon] = parts;
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    lat = record['lat'];
    lon = record['lon'] ?? record['lng'];
  } else return bad(CORNER_SHAPE);
  const latitude = formNumber(lat);
  const longitude = formNumber(lon);
  if (latitude !== undefined && typeof latitude !== 'number') return bad('lat must be a number.');
  if (longitude !== undefined && typeof longitude !== 'number') return bad('lon must be a number.');
  if (latitude === undefined || longitude === undefined) return bad('needs both lat and lon.');
  if (latitude < -90 || latitude > 90) return bad('lat must be between -90 and 90.');
  if (longitude < -180 || longitude > 180) return bad('lon must be between -180 and 180.');
  return { lat: latitude, lon: longitude };
}

const cornerSchema = z
  .preprocess(
    readCorner,
    z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) }).optional(),
  )
  .meta({ description: 'a corner: {lat, lon} ({lat, lng} too), or the text "lat,lon"' });

/** Both corners or neither; southwest south of northeast. Checked after the fields. */
function boundsOf(
  { southwest, northeast }: { southwest?: LatLon | undefined; northeast?: LatLon | undefined },
  ctx: z.RefinementCtx,
): SearchBounds | null {
  if (!southwest && !northeast) return null;
  if (!southwest || !northeast) {
    const field = southwest ? 'northeast' : 'southwest';
    ctx.addIssue(
      domainIssue('searchBoundsInvalid', { reason: 'is required when the other corner is given.' }, [field]),
    );
    return null;
  }
  if (southwest.lat > northeast.lat) {
    ctx.addIssue(
      domainIssue('searchBoundsInvalid', { reason: 'must be south of northeast.' }, ['southwest']),
    );
    return null;
  }
  return { southwest, northeast };
}

/**
 * Reads form keys like `southwest[lat]` into nested objects (how browsers post nested form data).
 * The objects have no prototype, so a key such as `__proto__[x]` is only a field. Absent is {}.
 */
function nestFormKeys(body: unknown): unknown {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) return body;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested) {
      const outer = nested[1] as string;
      const current = Object.hasOwn(out, outer) ? out[outer] : undefined;
      let target: Record<string, unknown>;
      if (current && typeof current === 'object') target = current as Record<string, unknown>;
      else out[outer] = target = Object.create(null) as Record<string, unknown>;
      target[nested[2] as string] = value;
    } else if (!Object.hasOwn(out, key)) out[key] = value;
  }
  return out;
}

const NOT_AN_OBJECT = 'must be a JSON object or form fields.';
const absentAsEmpty = (value: unknown) => formText(value) ?? '';

const suggestionFields = z.object(
  {
    q: z.preprocess(
      absentAsEmpty,
      userText()
        .trim()
        .min(QUERY_MIN_LENGTH, `type at least ${QUERY_MIN_LENGTH} character.`)
        .max(QUERY_MAX_LENGTH, `must be at most ${QUERY_MAX_LENGTH} characters long.`)
        .meta({ description: 'what the user typed (trimmed)', examples: ['golden'] }),
    ),
    maxresults: z.preprocess(
      formNumber,
      z
        .number({ error: 'must be a whole number.' })
        .int(`must be a whole number from 1 to ${SUGGESTIONS_MAX}.`)
        .min(1, `must be a whole number from 1 to ${SUGGESTIONS_MAX}.`)
        .max(SUGGESTIONS_MAX, `must be a whole number from 1 to ${SUGGESTIONS_MAX}.`)
        .default(SUGGESTIONS_MAX),
    ),
    includeevents: z.preprocess(
      formBoolean,
      z
        .boolean({ error: 'must be true or false.' })
        .default(false)
        .meta({ description: 'also suggest events; forms may send 1/0, on/off, yes/no' }),
    ),
    southwest: cornerSchema,
    northeast: cornerSchema,
  },
  { error: NOT_AN_OBJECT },
);

/** POST /v1/app/searchsuggestions: form fields or JSON; parsed into the service's input. */
export const suggestionRequestSchema = withFieldErrors(
  z.preprocess(
    nestFormKeys,
    suggestionFields.transform(({ southwest, northeast, ...fields }, ctx) => ({
      ...fields,
      bounds: boundsOf({ southwest, northeast }, ctx),
    })),
  ),
  {
    q: 'searchQueryInvalid',
    maxresults: 'searchMaxResultsInvalid',
    southwest: 'searchBoundsInvalid',
    northeast: 'searchBoundsInvalid',
  },
  'searchFieldInvalid',
);
export type SuggestionRequest = z.input<typeof suggestionFields>;
export type ParsedSuggestionRequest = z.output<typeof suggestionRequestSchema>;

export interface ParsedPagedSearchRequest {
  /** keywords without the supertype prefix. */
  keywords: string;
  supertype: SearchSupertype | null;
  bounds: SearchBounds | null;
  /** without bounds, where distance is measured from; null: no distance order. */
  near: LatLon | null;
  pageNumber: number;
  pageSize: number;
}

/** §9: 12, 24, 48 or 96; absent means 12; any other size falls back to 24. */
export function pageSizeOf(value: unknown): number {
  if (value === undefined || value === null || value === '') return PAGE_SIZE_DEFAULT;
  const size = typeof value === 'string' ? Number(value) : value;
  return (PAGE_SIZES as readonly unknown[]).includes(size) ? (size as number) : PAGE_SIZE_FALLBACK;
}

/** '', 'all' and 'none' filter nothing (§5); 'meonmap' is the old name of service. */
function supertypeOf(value: string, ctx: z.RefinementCtx): SearchSupertype | null {
  const lower = value.trim().toLowerCase();
  if (lower === '' || lower === 'all' || lower === 'none') return null;
  const name = lower === 'meonmap' ? 'service' : lower;
  if ((SEARCH_SUPERTYPES as readonly string[]).includes(name)) return name as SearchSupertype;
  ctx.addIssue(
    domainIssue('searchSupertypeUnknown', { value: value.slice(0, 40), list: SEARCH_SUPERTYPES.join(', ') }, [
      'supertype',
    ]),
  );
  return null;
}

/**
 * Keywords may start with a supertype and an equals sign (§2: 'service=plumber'); that prefix wins over
 * the supertype field. Returns the keywords without it.
 */
export function splitSupertypePrefix(keywords: string): { supertype: string | null; keywords: string } {
  const prefixed = /^\s*([A-Za-z]+)\s*=(.*)$/s.exec(keywords);
  if (!prefixed) return { supertype: null, keywords: keywords.trim() };
  return { supertype: prefixed[1] as string, keywords: (prefixed[2] as string).trim() };
}

const PAGE_NUMBER_REASON = 'must be a whole number from 1.';

const pagedSearchFields = z.object(
  {
    keywords: z.preprocess(
      absentAsEmpty,
      userText().meta({
        description: `what to search for, at most ${QUERY_MAX_LENGTH} characters; may start with a supertype and = ('service=plumber')`,
        examples: ['golden', 'service=plumber'],
      }),
    ),
    supertype: z.preprocess(
      formText,
      z
        .string({ error: 'must be text.' })
        .nullish()
        .meta({ description: `one of ${SEARCH_SUPERTYPES.join(', ')}, or all/none/empty for every one` }),
    ),
    southwest: cornerSchema,
    northeast: cornerSchema,
    near: cornerSchema.meta({
      description:
        "without bounds, results are ranked by distance from this point (the map centre or the visitor's chosen place); ignored with bounds",
    }),
    pageNumber: z.preprocess(
      formNumber,
      z.number({ error: PAGE_NUMBER_REASON }).int(PAGE_NUMBER_REASON).min(1, PAGE_NUMBER_REASON).default(1),
    ),
    pageSize: z.preprocess(
      pageSizeOf,
      z.number().meta({
        description: `${PAGE_SIZES.join(', ')}; absent means ${PAGE_SIZE_DEFAULT}, any other size ${PAGE_SIZE_FALLBACK}`,
        examples: [PAGE_SIZE_DEFAULT],
      }),
    ),
  },
  { error: NOT_AN_OBJECT },
);

/** POST /v1/webonly/pagedmapsearch: JSON; parsed into the service's input. */
export const pagedSearchRequestSchema = withFieldErrors(
  z.preprocess(
    nestFormKeys,
    pagedSearchFields.transform((fields, ctx): ParsedPagedSearchRequest => {
      const split = splitSupertypePrefix(fields.keywords);
      const parsed: ParsedPagedSearchRequest = {
        keywords: split.keywords,
        supertype: null,
        bounds: null,
        near: null,
        pageNumber: fields.pageNumber,
        pageSize: fields.pageSize,
      };
      if (split.keywords.length > QUERY_MAX_LENGTH) {
        ctx.addIssue(
          domainIssue(
            'searchKeywordsInvalid',
            { reason: `must be at most ${QUERY_MAX_LENGTH} characters long.` },
            ['keywords'],
          ),
        );
        return parsed;
      }
      parsed.supertype = supertypeOf(split.supertype ?? fields.supertype ?? '', ctx);
      if (split.keywords.length === 0 && parsed.supertype === null)
        ctx.addIssue(
          domainIssue(
            'searchKeywordsInvalid',
            { reason: 'type what to search for, or choose a supertype.' },
            ['keywords'],
          ),
        );
      parsed.bounds = boundsOf(fields, ctx);
      parsed.near = parsed.bounds === null ? (fields.near ?? null) : null;
      return parsed;
    }),
  ),
  { pageNumber: 'searchPageNumberInvalid', keywords: 'searchKeywordsInvalid' },
  'searchFieldInvalid',
);
export type PagedSearchRequest = z.input<typeof pagedSearchFields>;
