import { z } from 'zod';
import {
  EMPTY_MEDIA,
  POST_DESCRIPTION_MAX_LENGTH,
  POST_TITLE_MAX_LENGTH,
  postCategorySchema,
  type PostFormState,
} from '../../../shared/api/posts';
import type { CoverValue } from './CoverPicker';
import { toLocalInput } from './format';
import type { VideoValue } from './VideoPicker';

/**
 * The post form's values and the body it sends (social §3 post form). The rules are the contract's
 * (src/shared/api/posts.ts postFormSchema) with the spec's messages (§5); the expiry select of §4
 * is two fields here (the choice and the custom date) and one `expireson` on the wire.
 */
export const REQUIRED = 'Field is required!';
export const TOO_LONG = 'Please enter valid text. Text is too long!';
export const BAD_DATE = 'Please enter a valid date';
export const BEFORE_1901 = 'Dates before 1901 are invalid.';

export const postFormValuesSchema = z
  .object({
    title: z.string().trim().min(1, REQUIRED).max(POST_TITLE_MAX_LENGTH, TOO_LONG),
    description: z.string().trim().min(1, REQUIRED).max(POST_DESCRIPTION_MAX_LENGTH, TOO_LONG),
    type: postCategorySchema,
    /** social §4: 'not set' (range 0) or a custom date (range -1) */
    expiry: z.enum(['notset', 'custom']),
    /** the custom date, as a datetime-local input holds it */
    expiry_date: z.string(),
    /** '' for no place */
    xpointid: z.string(),
  })
  .superRefine((values, context) => {
    if (values.expiry !== 'custom') return;
    const time = Date.parse(values.expiry_date);
    if (values.expiry_date === '' || !Number.isFinite(time))
      context.addIssue({ code: 'custom', path: ['expiry_date'], message: BAD_DATE });
    else if (new Date(time).getFullYear() < 1901)
      context.addIssue({ code: 'custom', path: ['expiry_date'], message: BEFORE_1901 });
  });
export type PostFormValues = z.output<typeof postFormValuesSchema>;

/** The form's first values: empty for a new post (with the point it was opened from), else the post's. */
export function initialValues(state: PostFormState, xpointid: string | undefined): PostFormValues {
  const post = state.post;
  if (post === null)
    return {
      title: '',
      description: '',
      type: 'deal',
      expiry: 'notset',
      expiry_date: '',
      xpointid: xpointid ?? '',
    };
  return {
    title: post.title,
    description: post.description,
    type: post.type,
    expiry: post.expireson === null ? 'notset' : 'custom',
    expiry_date: post.expireson === null ? '' : toLocalInput(post.expireson),
    xpointid: post.xpointid ?? '',
  };
}

/** The multipart text fields, in the order the server reads them (the cover file comes after). */
export function formFields(
  state: PostFormState,
  values: PostFormValues,
  cover: CoverValue,
  video: VideoValue,
  cityForUrl: string | null,
): Record<string, string | undefined> {
  return {
    id: state.id,
    version: state.post === null ? undefined : String(state.post.version),
    title: values.title.trim(),
    description: values.description.trim(),
    type: values.type,
    expireson: values.expiry === 'custom' ? new Date(values.expiry_date).toISOString() : '',
    // no place: EMPTY takes an edited post off the point it had (an absent field would keep it)
    xpointid: values.xpointid === '' ? EMPTY_MEDIA : values.xpointid,
    city_forurl: cityForUrl ?? undefined,
    cover_image: cover.kind === 'empty' ? EMPTY_MEDIA : undefined,
    video_id: video.kind === 'uploaded' ? video.id : video.kind === 'empty' ? EMPTY_MEDIA : undefined,
    resultMode: 'ReturnJson',
    returnUrl: state.returnUrl,
  };
}

/** A field the server named, as the form's field (or null: the form's own message shows it). */
export function formFieldOf(field: string): keyof PostFormValues | 'cover' | 'video' | null {
  if (field === 'expireson') return 'expiry_date';
  if (field === 'cover_image' || field === 'cover_file') return 'cover';
  if (field === 'video_id') return 'video';
  return ['title', 'description', 'type', 'xpointid'].includes(field)
    ? (field as keyof PostFormValues)
    : null;
}
