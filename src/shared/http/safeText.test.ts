import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SAFE_TEXT_LENGTH, parseErrorBody, safeErrorText, statusText, stripMarkup } from './safeText';

describe('safeErrorText', () => {
  it('shows the error of our API JSON, as an object or as text', () => {
    expect(safeErrorText(404, { errorcode: 2010, error: 'There is no point with id abc.' })).toBe(
      'There is no point with id abc.',
    );
    expect(safeErrorText(400, '{"errorcode":6705,"error":"Param [xpointId] is invalid!"}')).toBe(
      'Param [xpointId] is invalid!',
    );
  });

  it("falls back to 'Status [code]. Network/Server error.' when there is no text", () => {
    expect(safeErrorText(502, '')).toBe('Status [502]. Network/Server error.');
    expect(safeErrorText(0, undefined)).toBe('Status [0]. Network/Server error.');
    expect(
      safeErrorText(500, '<html><head><title>x</title></head><body><script>alert(1)</script></body></html>'),
    ).toBe('Status [500]. Network/Server error.');
    expect(safeErrorText(503, { errorcode: 1, error: '   ' })).toBe('Status [503]. Network/Server error.');
  });

  it('drops header, footer, script, style and link elements with their content, then every tag', () => {
    const page =
      '<!doctype html><html><head><link rel="stylesheet" href="/x.css"><style>p{}</style></head><body>' +
      '<header>Site menu</header><h1>502 Bad Gateway</h1><p>The upstream &amp; proxy failed.</p>' +
      '<script>document.cookie</script><footer>nginx</footer></body></html>';
    expect(safeErrorText(502, page)).toBe('502 Bad Gateway The upstream & proxy failed.');
  });

  it('neutralises markup hidden in an API error text', () => {
    expect(safeErrorText(400, { errorcode: 1, error: 'bad <img src=x onerror=alert(1)> input' })).toBe(
      'bad input',
    );
    // an encoded tag decodes to text that still loses its tag
    expect(stripMarkup('a &lt;script&gt;x&lt;/script&gt; b')).toBe('a b');
  });

  it('cuts long bodies', () => {
    const text = safeErrorText(500, 'x'.repeat(10_000));
    expect(text).toHaveLength(MAX_SAFE_TEXT_LENGTH);
    expect(text.endsWith('…')).toBe(true);
  });

  it('never returns text holding a tag, whatever the body', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: fc.constantFrom('<', '>', '/', 's', 'a', '&', ';', 'l', 't', ' ') }),
        ),
        (body) => {
          const text = safeErrorText(500, body);
          expect(text).not.toMatch(/<[A-Za-z!/?]/);
          expect(text.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('parseErrorBody and statusText', () => {
  it('reads only objects with a string error', () => {
    expect(parseErrorBody('not json')).toBeNull();
    expect(parseErrorBody('{"error": 5}')).toBeNull();
    expect(parseErrorBody('{broken')).toBeNull();
    expect(parseErrorBody({ error: 'x' })).toEqual({ errorcode: 0, error: 'x' });
  });

  it('names the status', () => {
    expect(statusText(404)).toBe('Status [404]. Network/Server error.');
    expect(statusText(Number.NaN)).toBe('Status [0]. Network/Server error.');
  });
});
