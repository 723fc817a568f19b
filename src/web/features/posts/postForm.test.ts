import { describe, expect, it } from 'vitest';
import type { PostFormState } from '../../../shared/api/posts';
import { BEFORE_1901, REQUIRED, TOO_LONG, formFields, postFormValuesSchema } from './postForm';

const STATE: PostFormState = {
  action: '/myposts/save',
  id: '0b8f8a52-3c1e-4f55-9a0e-6d1c2b3a4f5e',
  resultMode: 'ReturnJson',
  returnUrl: '/u/olivia?pagenumber=1&pagesize=12',
  post: null,
  categories: ['deal'],
  limits: {
    title: 120,
    description: 5000,
    image_bytes: 10_485_760,
    video_bytes: 104_857_600,
    crop_size: 512,
  },
};
const VALUES = {
  title: 'Two for one',
  description: 'All week',
  type: 'deal' as const,
  expiry: 'notset' as const,
  expiry_date: '',
  xpointid: 'cafe_1',
};

const messages = (values: unknown) => {
  const parsed = postFormValuesSchema.safeParse(values);
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
};

describe('the post form (social §3-§5)', () => {
  it('says a required field is required and a long title too long, in the spec’s words', () => {
    expect(messages({ ...VALUES, title: '  ', description: '' })).toEqual({
      title: REQUIRED,
      description: REQUIRED,
    });
    expect(messages({ ...VALUES, title: 'x'.repeat(121) })).toEqual({ title: TOO_LONG });
  });

  it('asks for a date when the expiry is custom, and refuses one before 1901', () => {
    expect(messages({ ...VALUES, expiry: 'custom', expiry_date: '1900-12-31T10:00' })).toEqual({
      expiry_date: BEFORE_1901,
    });
    expect(messages({ ...VALUES, expiry: 'custom', expiry_date: '2020-01-01T10:00' })).toEqual({});
  });

  it('sends "not set" as empty, EMPTY for a deleted cover, and the uploaded video by id', () => {
    const fields = formFields(STATE, VALUES, { kind: 'empty' }, { kind: 'uploaded', id: 'v1' }, null);
    expect(fields).toMatchObject({
      id: STATE.id,
      version: undefined,
      expireson: '',
      cover_image: 'EMPTY',
      video_id: 'v1',
      resultMode: 'ReturnJson',
      xpointid: 'cafe_1',
    });
    expect(Object.keys(fields)[0]).toBe('id');
  });
});
