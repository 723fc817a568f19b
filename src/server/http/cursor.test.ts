import { describe, expect, it } from 'vitest';
import { decodeKeyCursor, encodeKeyCursor } from './cursor';

describe('keyset cursors', () => {
  it('gives back the key and the tie-breaker it was made of', () => {
    expect(decodeKeyCursor(encodeKeyCursor(1_795_830_000_000, 42), 'number')).toEqual([
      1_795_830_000_000, 42,
    ]);
    expect(decodeKeyCursor(encodeKeyCursor(7, 'like:post:abc:2026-11-28'), 'string')).toEqual([
      7,
      'like:post:abc:2026-11-28',
    ]);
  });

  it('refuses a cursor of another kind, a forged one and noise, without throwing', () => {
    expect(decodeKeyCursor(encodeKeyCursor(7, 'abc'), 'number')).toBeNull();
    expect(decodeKeyCursor(encodeKeyCursor(7, 42), 'string')).toBeNull();
    expect(decodeKeyCursor(Buffer.from('[1.5,2]').toString('base64url'), 'number')).toBeNull();
    expect(decodeKeyCursor(Buffer.from('[1,2,3]').toString('base64url'), 'number')).toBeNull();
    expect(decodeKeyCursor(Buffer.from('{"a":1}').toString('base64url'), 'number')).toBeNull();
    expect(decodeKeyCursor('not base64 json!', 'number')).toBeNull();
    expect(decodeKeyCursor('', 'string')).toBeNull();
  });
});
