import fc from 'fast-check';

/**
 * Values an attacker or a broken client sends in place of a field: wrong types, numbers at and past
 * the edges of what JSON and JavaScript hold, strings a number parser may half-read, text that breaks
 * naive code (empty, huge, control characters, lone surrogates, direction overrides, combining marks),
 * injection and traversal probes, and objects shaped to pollute prototypes.
 */
/**
 * Values nested thousands of levels deep: JSON.stringify in this process would overflow its own stack
 * on them, so a field holds a placeholder that `toJson` replaces with the nested text.
 */
const DEEP_VALUES: Record<string, string> = {
  'deep array 100': `${'['.repeat(100)}1${']'.repeat(100)}`,
  'deep array 5000': `${'['.repeat(5000)}1${']'.repeat(5000)}`,
  'deep object 5000': `${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}`,
};
const placeholder = (name: string) => `\u0000${name}\u0000`;

/** JSON.stringify, with the deep values' placeholders replaced by their nested text. */
export function toJson(value: unknown): string {
  let text = JSON.stringify(value) ?? 'null';
  for (const [name, nested] of Object.entries(DEEP_VALUES))
    text = text.replaceAll(JSON.stringify(placeholder(name)), nested);
  return text;
}

const HOSTILE_CONSTANTS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  '',
  ' ',
  '   \t\n',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '0x1F',
  '1_000',
  '0012',
  '12abc',
  '١٢٣',
  'true',
  'null',
  'undefined',
  '[object Object]',
  '__proto__',
  'constructor',
  "' OR '1'='1",
  '"; drop table points; --',
  '%',
  '%00',
  '%E0%A4%A',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}${7*7}',
  '\u0000',
  'nul\u0000inside',
  '\u0007\u001b[31mbell',
  '\uD800',
  'lone \uDFFF surrogate',
  '\u202Egnp.exe',
  '\u200B\u200C\u200D\uFEFF',
  'e\u0301\u0301\u0301\u0301\u0301',
  '𝕏🏳️‍🌈👩‍👩‍👧‍👦',
  'İıǅß',
  '\r\nSet-Cookie: x=1',
  'x'.repeat(10_000),
  'é'.repeat(70_000),
  [],
  [[]],
  [1, 2, 3],
  ['a', null],
  {},
  { a: { b: { c: {} } } },
  JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
  { $gt: '' },
  { toString: 'x', valueOf: 1 },
];

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS) },
  { weight: 1, arbitrary: fc.constantFrom(...Object.keys(DEEP_VALUES).map(placeholder)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Hostile text for a path segment or a query value (before percent-encoding). */
export const hostileText: fc.Arbitrary<string> = hostileValue.map((value) =>
  typeof value === 'string' ? value : toJson(value),
);

/**
 * Whole bodies that are not the JSON object a call reads: other JSON values, malformed JSON, deep
 * nesting, a body past the 1 MiB limit, and content types the call does not take.
 */
export interface RawBody {
  payload: string;
  contentType: string | undefined;
  /** how deep the body nests, when it was made to nest. */
  depth?: number;
}

const nested = (depth: number, open: string, close: string, inner = '1') =>
  open.repeat(depth) + inner + close.repeat(depth);

export const rawBody: fc.Arbitrary<RawBody> = fc.oneof(
  fc.constantFrom<RawBody>(
    { payload: '', contentType: 'application/json' },
    { payload: '{', contentType: 'application/json' },
    { payload: '{"a":1,}', contentType: 'application/json' },
    { payload: "{'a': 1}", contentType: 'application/json' },
    { payload: '{"a": NaN}', contentType: 'application/json' },
    { payload: '{"a": Infinity}', contentType: 'application/json' },
    { payload: '{"a": 1e999}', contentType: 'application/json' },
    { payload: '{"a":"\\ud800"}', contentType: 'application/json' },
    { payload: '\uFEFF{}', contentType: 'application/json' },
    { payload: 'null', contentType: 'application/json' },
    { payload: '"text"', contentType: 'application/json' },
    { payload: '[]', contentType: 'application/json' },
    { payload: '12', contentType: 'application/json' },
    { payload: '{"__proto__": {"isAdmin": true}}', contentType: 'application/json' },
    { payload: '{"a":1,"a":2}', contentType: 'application/json' },
    { payload: '{}', contentType: 'application/json; charset=utf-16' },
    { payload: '{}', contentType: 'text/plain' },
    { payload: 'a=1&b[c]=2&b[c]=3&__proto__[x]=1', contentType: 'application/x-www-form-urlencoded' },
    {
      payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      contentType: 'multipart/form-data',
    },
    { payload: '<xml/>', contentType: 'application/xml' },
    { payload: '{}', contentType: 'application/json, text/html' },
    { payload: '{}', contentType: undefined },
    { payload: `{"q":"${'x'.repeat(1024 * 1024 + 10)}"}`, contentType: 'application/json' },
  ),
  fc.constantFrom(10, 100, 1000, 5000, 20_000).chain((depth) =>
    fc.constantFrom<RawBody>(
      { payload: nested(depth, '[', ']'), contentType: 'application/json', depth },
      { payload: nested(depth, '{"a":', '}'), contentType: 'application/json', depth },
      {
        payload: `{"id":${nested(depth, '[', ']')},"title":${nested(depth, '{"a":', '}')}}`,
        contentType: 'application/json',
        depth,
      },
    ),
  ),
);
