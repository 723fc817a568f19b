/**
 * Failed responses turned into text that is safe to show (map-and-search §8): the `{errorcode, error}`
 * JSON of our API gives its `error`; any other body (an HTML error page from a proxy, say) loses its
 * header, footer, script, style and link elements with their content, then every remaining tag, so no
 * markup or script survives; nothing left gives 'Status [code]. Network/Server error.'. The result is
 * plain text: React escapes it again when it renders, so even a missed tag could never run.
 *
 * Every place that shows a failed response uses this one helper (the API client, the panels, the
 * server-rendered pages).
 */

/** Longer texts are cut: an error message is a sentence, not a page. */
export const MAX_SAFE_TEXT_LENGTH = 500;

/** Elements dropped with everything inside them. */
const DROPPED_ELEMENTS = ['script', 'style', 'header', 'footer', 'link', 'noscript', 'template', 'head'];

const DROPPED = new RegExp(`<(${DROPPED_ELEMENTS.join('|')})\\b[^>]*>[\\s\\S]*?(?:<\\/\\1\\s*>|$)`, 'gi');
/** Self-closed or unclosed forms of the same elements (`<link ...>`, `<script src=...>` never closed). */
const DROPPED_OPEN = new RegExp(`<\\/?(${DROPPED_ELEMENTS.join('|')})\\b[^>]*>?`, 'gi');
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const TAG = /<\/?[A-Za-z!?][^>]*>?/g;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The fallback text of §8 when a failed response carries nothing to show. */
export function statusText(status: number): string {
  return `Status [${Number.isInteger(status) ? status : 0}]. Network/Server error.`;
}

/** Markup removed, entities decoded once, whitespace collapsed, length capped. */
export function stripMarkup(text: string): string {
  const decoded = removeMarkup(text).replace(/&(#\d{1,7}|#x[\da-f]{1,6}|[a-z]+);/gi, (whole, name: string) =>
    decodeEntity(whole, name),
  );
  // entities may have spelled markup (`&lt;script&gt;`): remove it again, then any `<` that could
  // still open a tag
  const stripped = removeMarkup(decoded)
    .replace(/<(?=[A-Za-z!/?])/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return stripped.length > MAX_SAFE_TEXT_LENGTH
    ? `${stripped.slice(0, MAX_SAFE_TEXT_LENGTH - 1)}…`
    : stripped;
}

function removeMarkup(text: string): string {
  return text.replace(COMMENT, ' ').replace(DROPPED, ' ').replace(DROPPED_OPEN, ' ').replace(TAG, ' ');
}

function decodeEntity(whole: string, name: string): string {
  if (name.startsWith('#')) {
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return ENTITIES[name.toLowerCase()] ?? whole;
}

/** `{errorcode, error}` when the body is our API's error JSON, else null. */
export function parseErrorBody(body: unknown): { errorcode: number; error: string; field?: string } | null {
  let value = body;
  if (typeof body === 'string') {
    const trimmed = body.trim();
    if (!trimmed.startsWith('{')) return null;
    try {
      value = JSON.parse(trimmed) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const { errorcode, error, field } = value as { errorcode?: unknown; error?: unknown; field?: unknown };
  if (typeof error !== 'string') return null;
  const parsed = { errorcode: typeof errorcode === 'number' ? errorcode : 0, error };
  return typeof field === 'string' ? { ...parsed, field } : parsed;
}

/**
 * What to show for a failed response: the API's error text, else the body's text without markup,
 * else 'Status [code]. Network/Server error.'.
 */
export function safeErrorText(status: number, body: unknown): string {
  const parsed = parseErrorBody(body);
  const text =
    parsed !== null ? stripMarkup(parsed.error) : typeof body === 'string' ? stripMarkup(body) : '';
  return text === '' ? statusText(status) : text;
}
