/**
 * What people type, made safe to store and show (issue 16, finding 5): every text field of every
 * contract passes through `normaliseText` (src/shared/api's `text()` helpers call it), so a title, a
 * name or a description is stored one way whatever the keyboard, the paste or the client.
 *
 * - Unicode NFC: 'é' typed as e + combining accent and as one character compare, search and fold alike.
 * - Control characters (C0, DEL, C1) are removed: a stray vertical tab from a paste changes nothing a
 *   person meant. Multi-line fields keep line feeds and tabs (a CR LF or a lone CR becomes LF); in a
 *   one-line field a line break or tab becomes a space, so pasted words stay apart.
 * - Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are refused: they
 *   make a name read differently from what it is ("Trojan Source"), and no form needs them, since the
 *   browser sets a text's direction from its letters.
 * - A lone surrogate is refused: it is not text, and it cannot be stored as UTF-8 or sent as JSON intact.
 *
 * Refusals are the field's own error (its contract's `withFieldErrors` entry, or 1003 naming the
 * field) with the reasons below.
 */

/** C0 controls, DEL and C1 controls, less the line breaks and tab handled on their own. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/gu;
/** Line breaks and tabs: kept in multi-line text, a space in one-line text. */
const LINE_BREAK_OR_TAB = /\r\n|[\r\n\t]/g;
/** Embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI). */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const BIDI_CONTROL_REASON =
  'may not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069).';
export const LONE_SURROGATE_REASON = 'is not valid Unicode text (a lone surrogate).';

export interface TextOptions {
  /** keeps line feeds and tabs (descriptions, claim text, messages). */
  multiline?: boolean;
}

/** The reason `value` is refused, or null. Checked on the text as it arrives. */
export function textProblem(value: string): string | null {
  if (LONE_SURROGATE.test(value)) return LONE_SURROGATE_REASON;
  if (BIDI_CONTROL.test(value)) return BIDI_CONTROL_REASON;
  return null;
}

/**
 * `value` in NFC without control characters (multi-line text keeps LF and tab, its CR LF and CR become
 * LF). Does not trim: the contracts trim where the spec does. Call `textProblem` first: a lone
 * surrogate does not survive NFC.
 */
export function normaliseText(value: string, { multiline = false }: TextOptions = {}): string {
  const text = value.replace(CONTROL, '');
  const lines = multiline ? text.replace(/\r\n?/g, '\n') : text.replace(LINE_BREAK_OR_TAB, ' ');
  return lines.normalize('NFC');
}
