import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL_REASON, LONE_SURROGATE_REASON, normaliseText, textProblem } from './text';

describe('normaliseText', () => {
  it('composes to NFC', () => {
    expect(normaliseText('Cafe\u0301')).toBe('Café');
    expect(normaliseText('Cafe\u0301')).toHaveLength(4);
  });

  it('removes C0, DEL and C1 controls', () => {
    expect(normaliseText('a\u0000b\u0007c\u001bd\u007fe\u0085f\u009fg')).toBe('abcdefg');
  });

  it('turns line breaks and tabs into spaces in one-line text', () => {
    expect(normaliseText('Bakery\r\nde la\tPaix\nà Paris\r')).toBe('Bakery de la Paix à Paris ');
  });

  it('keeps line feeds and tabs in multi-line text, CR LF and CR as LF', () => {
    expect(normaliseText('one\r\ntwo\rthree\n\tfour\u000b', { multiline: true })).toBe(
      'one\ntwo\nthree\n\tfour',
    );
  });

  it('keeps every other character, right-to-left letters and emoji included', () => {
    const text = 'مخبز 🥐 Bäckerei — 東京 \u200f';
    expect(normaliseText(text)).toBe(text);
  });
});

describe('textProblem', () => {
  it.each(['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'])(
    'refuses the bidirectional control U+%s',
    (control) => {
      expect(textProblem(`admin${control}txt.exe`)).toBe(BIDI_CONTROL_REASON);
    },
  );

  it('refuses lone surrogates, high or low, and accepts pairs', () => {
    expect(textProblem('a\ud83db')).toBe(LONE_SURROGATE_REASON);
    expect(textProblem('a\ude00b')).toBe(LONE_SURROGATE_REASON);
    expect(textProblem('end\ud83d')).toBe(LONE_SURROGATE_REASON);
    expect(textProblem('😀 \ud83d\ude00')).toBeNull();
  });

  it('accepts ordinary text and the direction marks U+200E and U+200F', () => {
    expect(textProblem('Boulangerie \u200eParis\u200f')).toBeNull();
  });
});
