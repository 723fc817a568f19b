import { describe, expect, it } from 'vitest';
import { pageLocale } from './page';
import {
  canonicalUrl,
  escapeHtml,
  pageDescription,
  pointJsonLd,
  pointPageHead,
  previewImage,
  schemaOpeningHours,
  scriptJson,
  type SeoPoint,
} from './seo';

const ORIGIN = 'https://xpoint.test';

function point(fields: Partial<SeoPoint> = {}): SeoPoint {
  return {
    id: 'bakery1',
    supertype: 'business',
    type: 'bakery',
    title: 'Blue Door Bakery',
    tagline: null,
    description: 'Sourdough and cinnamon buns, baked at dawn.',
    location: { city: 'Lisbon', country: 'Portugal', city_forurl: 'lisbon', state: 'Lisbon' },
    lat: 38.7223,
    lon: -9.1393,
    full_address: 'Rua Augusta 10',
    link_email: 'hello@bluedoor.test',
    link_phone: '+351 21 000 0000',
    link_website: 'https://bluedoor.test',
    link_facebook: 'facebook.com/bluedoor',
    url_icon_or_logo: '/media/logo.webp',
    carousel: [
      { kind: 'video', url: '/media/tour.mp4', poster: null },
      { kind: 'image', url: '/media/front.webp' },
    ],
    rating: 86,
    rating_count: 12,
    opening_hours: null,
    events: null,
    ...fields,
  };
}

describe('pageDescription', () => {
  it('uses the description, on one line', () => {
    expect(pageDescription(point({ description: 'Bread.\n\nAnd  buns.' }), 'Bakery')).toBe(
      'Bread. And buns.',
    );
  });

  it('cuts a long description at a word within 160 characters', () => {
    const text = pageDescription(point({ description: 'word '.repeat(60) }), 'Bakery');
    expect(Array.from(text).length).toBeLessThanOrEqual(160);
    expect(text).toMatch(/word…$/);
  });

  it('falls back to the tagline, then to what and where the point is', () => {
    expect(pageDescription(point({ description: null, tagline: 'Best buns' }), 'Bakery')).toBe('Best buns');
    expect(pageDescription(point({ description: '', tagline: null }), 'Bakery')).toBe(
      'Blue Door Bakery: Bakery in Lisbon, Portugal.',
    );
    expect(pageDescription(point({ description: null, location: null }), 'Bakery')).toBe(
      'Blue Door Bakery: Bakery.',
    );
  });
});

describe('schemaOpeningHours', () => {
  it('keeps rules that are days and times, one per rule', () => {
    expect(schemaOpeningHours('Mo-Fr 08:00-18:00; Sa 09:00-14:00')).toEqual([
      'Mo-Fr 08:00-18:00',
      'Sa 09:00-14:00',
    ]);
    expect(schemaOpeningHours('Mo,We,Fr 10:00-12:00,14:00-18:00')).toEqual([
      'Mo,We,Fr 10:00-12:00,14:00-18:00',
    ]);
    expect(schemaOpeningHours('24/7')).toEqual(['Mo-Su 00:00-24:00']);
  });

  it('says nothing when any rule says more than days and times', () => {
    expect(schemaOpeningHours('Mo-Fr 08:00-18:00; PH off')).toEqual([]);
    expect(schemaOpeningHours('Jan-Mar Mo-Fr 08:00-12:00')).toEqual([]);
    expect(schemaOpeningHours('Mo-Fr 8-18')).toEqual([]);
    expect(schemaOpeningHours('')).toEqual([]);
    expect(schemaOpeningHours(null)).toEqual([]);
  });
});

describe('pointJsonLd', () => {
  it('describes a business as a LocalBusiness with its address, contacts, rating and hours', () => {
    const doc = pointJsonLd(
      point({
        opening_hours: { opening_hours_string: 'Mo-Fr 08:00-18:00' } as SeoPoint['opening_hours'],
      }),
      ORIGIN,
    );
    expect(doc).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: 'Blue Door Bakery',
      url: 'https://xpoint.test/bakery1',
      geo: { '@type': 'GeoCoordinates', latitude: 38.7223, longitude: -9.1393 },
      address: {
        '@type': 'PostalAddress',
        streetAddress: 'Rua Augusta 10',
        addressLocality: 'Lisbon',
        addressRegion: 'Lisbon',
        addressCountry: 'Portugal',
      },
      telephone: '+351 21 000 0000',
      email: 'hello@bluedoor.test',
      image: ['https://xpoint.test/media/front.webp'],
      logo: 'https://xpoint.test/media/logo.webp',
      // a facebook value that is not a link (§5) is not a sameAs
      sameAs: ['https://bluedoor.test'],
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.3, bestRating: 5, ratingCount: 12 },
      openingHours: ['Mo-Fr 08:00-18:00'],
    });
  });

  it('describes other supertypes as a Place, without what only businesses have', () => {
    const doc = pointJsonLd(point({ supertype: 'experience', rating: null, rating_count: 0 }), ORIGIN);
    expect(doc).toMatchObject({ '@type': 'Place' });
    expect(doc).not.toHaveProperty('email');
    expect(doc).not.toHaveProperty('openingHours');
    expect(doc).not.toHaveProperty('aggregateRating');
  });

  it("lists the point's current and coming events, not the past ones", () => {
    const start = Date.UTC(2026, 11, 24, 18);
    const event = { id: 'ev1', title: 'Carols', start_date: start, end_date: start + 3_600_000 };
    const doc = pointJsonLd(
      point({ events: { current: [], upcoming: [event], later: [{ ...event, id: 'ev2', title: 'Fado' }] } }),
      ORIGIN,
    );
    expect(doc).toMatchObject({
      event: [
        {
          '@type': 'Event',
          name: 'Carols',
          startDate: '2026-12-24T18:00:00.000Z',
          endDate: '2026-12-24T19:00:00.000Z',
          url: 'https://xpoint.test/e/ev1',
          location: { '@type': 'Place', name: 'Blue Door Bakery' },
        },
        { name: 'Fado', url: 'https://xpoint.test/e/ev2' },
      ],
    });
  });

  it("leaves out an address written as 'lat,lon' as a street", () => {
    const doc = pointJsonLd(point({ full_address: '38.7223,-9.1393', location: null }), ORIGIN);
    expect(doc).not.toHaveProperty('address');
  });
});

describe('the page head', () => {
  it('has the canonical address, Open Graph tags and the JSON-LD', () => {
    const head = pointPageHead(point(), ORIGIN, 'Bakery');
    expect(head.title).toBe('Blue Door Bakery — XPoint');
    expect(head.canonical).toBe(canonicalUrl(ORIGIN, 'bakery1'));
    expect(head.tags).toContain('<link rel="canonical" href="https://xpoint.test/bakery1">');
    expect(head.tags).toContain('<meta property="og:type" content="business.business">');
    expect(head.tags).toContain('<meta property="og:image" content="https://xpoint.test/media/front.webp">');
    expect(head.tags).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head.tags.endsWith(head.jsonLd)).toBe(true);
  });

  it('cannot be broken out of by what an owner writes', () => {
    const title = '"><script>alert(1)</script>';
    const head = pointPageHead(
      point({ title, description: '</script><script>alert(2)</script>' }),
      ORIGIN,
      'x',
    );
    expect(head.tags).not.toContain('<script>alert');
    expect(head.jsonLd.match(/<\/script>/g)).toHaveLength(1);
    const json = head.jsonLd.replace(/^<script type="application\/ld\+json">/, '').replace(/<\/script>$/, '');
    expect((JSON.parse(json) as { name: string }).name).toBe(title);
  });

  it('takes a video poster or the logo when there is no picture', () => {
    expect(
      previewImage(point({ carousel: [{ kind: 'video', url: '/v.mp4', poster: '/p.webp' }] }), ORIGIN),
    ).toBe('https://xpoint.test/p.webp');
    expect(previewImage(point({ carousel: [] }), ORIGIN)).toBe('https://xpoint.test/media/logo.webp');
    expect(previewImage(point({ carousel: [], url_icon_or_logo: null }), ORIGIN)).toBeNull();
  });
});

describe('escaping', () => {
  it('escapes HTML and script-closing JSON', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(scriptJson({ t: '</script>&\u2028' })).toBe('{"t":"\\u003c/script\\u003e\\u0026\\u2028"}');
  });
});

describe('pageLocale', () => {
  it("takes the reader's first language that Intl knows", () => {
    expect(pageLocale('pt-PT,pt;q=0.9,en;q=0.8')).toBe('pt-PT');
    expect(pageLocale('*;q=0.5, de')).toBe('de');
    expect(pageLocale(undefined)).toBe('en');
    expect(pageLocale('not a language!!')).toBe('en');
  });
});
