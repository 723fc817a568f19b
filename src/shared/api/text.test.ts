import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractError } from './contract';
import { userText } from './text';

describe('userText', () => {
  const schema = z.object({ title: userText().trim().min(1, 'is required.').max(5, 'too long.') });

  it('normalises before trimming and counting', () => {
    expect(schema.parse({ title: '  Cafe\u0301\u0007 ' })).toEqual({ title: 'Café' });
    // five characters once composed: e + U+0301 would be six before NFC
    expect(schema.parse({ title: 'abcde\u0301' })).toEqual({ title: 'abcdé' });
  });

  it('refuses a bidi override with the field named (1003)', () => {
    const result = schema.safeParse({ title: 'a\u202eb' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(contractError(schema, result.error).toBody()).toEqual({
      errorcode: 1003,
      error: 'title: may not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069).',
      field: 'title',
    });
  });

  it('refuses a lone surrogate', () => {
    const result = schema.safeParse({ title: '\ud800x' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(contractError(schema, result.error).message).toBe(
      'title: is not valid Unicode text (a lone surrogate).',
    );
  });

  it('a text of only control characters is empty', () => {
    const result = schema.safeParse({ title: '\u0000\u0001' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(contractError(schema, result.error).message).toBe('title: is required.');
  });

  it('says what is missing or of the wrong type', () => {
    expect(userText().safeParse(undefined).error?.issues[0]?.message).toBe('is required.');
    expect(userText().safeParse(3).error?.issues[0]?.message).toBe('must be text.');
  });
});
