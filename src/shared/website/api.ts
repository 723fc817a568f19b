import { z } from 'zod';
import { WEBSITE_FIELDS, WEBSITE_PART_ROLES } from './index';

/**
 * The website calls' contracts (social §7), for the document and the answers. The request bodies are
 * kept loose here on purpose: their rules (part and picture indexes, field names once each, lengths)
 * answer the website's own catalogue entries, which the service raises (features/website/service.ts).
 */
const id = z.string().meta({ description: 'the point id' });
const index = z.unknown();
const version = z
  .number()
  .int()
  .optional()
  .meta({ description: 'the site version the editor read; a stale one answers 409 conflict' });

export const sectionRequestSchema = z.looseObject({
  xpointid: id,
  part_idx: index.meta({ description: 'the part (section), 1 to 6' }),
  enabled: z.unknown().meta({ description: 'true or false (1, on, yes / 0, off, no)' }),
  version,
});
export const partsRequestSchema = z.looseObject({
  xpointid: id,
  part_idx: index.meta({ description: 'the part, 1 to 6' }),
  fields: z.unknown().meta({
    description: `[{fieldname, fieldval}]: each of ${WEBSITE_FIELDS.join(', ')} at most once, only the changed ones`,
  }),
  version,
});
export const deletePicRequestSchema = z.looseObject({
  xpointid: id,
  part_idx: index.meta({ description: 'the part, 1 to 6' }),
  pic_idx: index.meta({ description: 'the picture, 1 to 10' }),
  version,
});
export const reorderPicsRequestSchema = z.looseObject({
  xpointid: id,
  part_idx: index.meta({ description: 'the part, 1 to 6' }),
  order: z.unknown().meta({ description: "the part's picture indexes in their new order; they become 1..n" }),
  version,
});
export const uploadPicFormSchema = z.object({
  xpointid: id,
  partidx: z.string().meta({ description: 'the part, 1 to 6' }),
  picidx: z.string().meta({ description: 'the slot, 1 to 10 (a picture there is replaced)' }),
  version: z.string().optional(),
  imgFile: z
    .unknown()
    .meta({ description: 'the picture (JPEG, PNG, GIF, WebP or HEIC; at most 10 MB), last' }),
});

export const websitePictureSchema = z.object({
  pic_idx: z.number(),
  url: z.string(),
  small: z.string().nullable(),
  fallback: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
export const websitePartSchema = z.object({
  part_idx: z.number(),
  role: z.enum(WEBSITE_PART_ROLES),
  enabled: z.boolean(),
  fields: z.record(z.enum(WEBSITE_FIELDS), z.string().nullable()),
  pictures: z.array(websitePictureSchema),
});
export const websiteWriteResponseSchema = z.object({
  status: z.literal('success'),
  xpointid: z.string(),
  version: z.number(),
  part: websitePartSchema,
});
export const websiteViewSchema = z.object({
  xpointid: z.string(),
  title: z.string(),
  version: z.number(),
  editable: z.boolean(),
  parts: z.array(websitePartSchema),
  auto: z.object({
    description: z.string().nullable(),
    hours: z.string().nullable(),
    events: z.array(z.object({ title: z.string(), start_date: z.number(), url: z.string().nullable() })),
    posts: z.array(
      z.object({ title: z.string(), description: z.string(), url: z.string(), image: z.string().nullable() }),
    ),
    reviews: z.array(z.object({ stars: z.number(), text: z.string(), author: z.string() })),
  }),
  time_zone_name: z.string().nullable(),
});
