import { describe, expect, it } from 'vitest';
import {
  WEBSITE_FIELD_MAX_CHARS,
  changedFields,
  charCount,
  emptyPart,
  fieldsProblem,
  firstFreeSlot,
  hasOwnText,
  isPartIndex,
  isPictureIndex,
} from './index';

describe('website rules (social §5)', () => {
  it('accepts title, description and line1-line10, each once and within its length', () => {
    expect(
      fieldsProblem([
        { fieldname: 'title', fieldval: 'Hello' },
        { fieldname: 'line10', fieldval: 'x'.repeat(WEBSITE_FIELD_MAX_CHARS.line10) },
      ]),
    ).toBeNull();
  });

  it('names the first problem: an unknown field, a field twice, a text too long, nothing at all', () => {
    expect(fieldsProblem([{ fieldname: 'line11', fieldval: '' }])).toEqual({
      kind: 'unknown',
      name: 'line11',
    });
    expect(fieldsProblem([{ fieldname: 'pic1', fieldval: '' }])).toEqual({ kind: 'unknown', name: 'pic1' });
    expect(
      fieldsProblem([
        { fieldname: 'line2', fieldval: 'a' },
        { fieldname: 'line2', fieldval: 'b' },
      ]),
    ).toEqual({ kind: 'twice', name: 'line2' });
    expect(fieldsProblem([{ fieldname: 'title', fieldval: 'x'.repeat(81) }])).toEqual({
      kind: 'tooLong',
      name: 'title',
      max: 80,
    });
    expect(fieldsProblem([])).toEqual({ kind: 'empty' });
  });

  it('counts characters as people do: an emoji is one', () => {
    expect(charCount('🍞🥐')).toBe(2);
    expect(fieldsProblem([{ fieldname: 'title', fieldval: '🍞'.repeat(80) }])).toBeNull();
  });

  it('sends only the fields that changed; trimmed text that is the same is no change', () => {
    const before = { title: 'Our ovens', line1: 'Wood fired', line2: null };
    expect(changedFields(before, { title: 'Our ovens ', line1: 'Gas fired', line2: '' })).toEqual([
      { fieldname: 'line1', fieldval: 'Gas fired' },
    ]);
    expect(changedFields(before, { title: 'Our ovens' })).toEqual([]);
  });

  it('knows the indexes: parts 1-6, pictures 1-10, and the first free slot', () => {
    expect([0, 1, 6, 7, 1.5].map(isPartIndex)).toEqual([false, true, true, false, false]);
    expect([0, 1, 10, 11].map(isPictureIndex)).toEqual([false, true, true, false]);
    const pic = (pic_idx: number) => ({
      pic_idx,
      url: '',
      small: null,
      fallback: null,
      width: null,
      height: null,
    });
    expect(firstFreeSlot([pic(1), pic(3)])).toBe(2);
    expect(firstFreeSlot(Array.from({ length: 10 }, (_, i) => pic(i + 1)))).toBeNull();
  });

  it('starts parts 1-5 on (they fill themselves) and the owner’s own part off, with no text', () => {
    expect([1, 2, 3, 4, 5, 6].map((i) => emptyPart(i).enabled)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(hasOwnText(emptyPart(6))).toBe(false);
  });
});
