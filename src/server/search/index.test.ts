import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOC_EVENT, DOC_POST, EMPTY_DOC, type SearchDoc } from './doc';
import { tokenize } from './fold';
import { DELTA_LIMIT, MemorySearchIndex, type SearchRequest } from './index';
import { centreOf, distanceFrom, type Bounds } from './segment';

const NOW = Date.UTC(2026, 5, 1, 12);

function doc(fields: Partial<SearchDoc> & { id: string; title: string }): SearchDoc {
  return { ...EMPTY_DOC, type: 'shop', lat: 40.75, lon: -73.99, ...fields };
}

const build = (docs: SearchDoc[]) => MemorySearchIndex.build((add) => docs.forEach(add));
const request = (text: string, more: Partial<SearchRequest> = {}): SearchRequest => ({
  text,
  bounds: null,
  supertype: null,
  includeEvents: false,
  offset: 0,
  limit: 10,
  needCount: true,
  now: NOW,
  ...more,
});
const ids = (index: MemorySearchIndex, text: string, more: Partial<SearchRequest> = {}) =>
  index.search(request(text, more)).docs.map((d) => d.id);

/**
 * The ranking spelled out plainly, over every document (no typo tolerance: callers use words that
 * find at least FUZZY_BELOW matches, or short ones): each match with its ranking key, best first.
 */
function ranked(docs: SearchDoc[], text: string, bounds: Bounds | null): { id: string; key: number[] }[] {
  const words = tokenize(text);
  const centre = centreOf(bounds);
  const level = (d: SearchDoc) =>
    (d.promo ? 22 : 0) + (d.beamtype & 1 ? 11 : 0) + (d.rating === null ? 0 : Math.round(d.rating / 10));
  return docs
    .filter(
      (d) =>
        !bounds ||
        (d.lat >= bounds.south && d.lat <= bounds.north && d.lon >= bounds.west && d.lon <= bounds.east),
    )
    .filter((d) => {
      const all = [...tokenize(d.title), ...tokenize(d.type)];
      return words.every((w) => all.some((t) => t.startsWith(w)));
    })
    .map((d) => {
      const title = tokenize(d.title);
      const exactTitle = title.length === words.length && words.every((w, j) => title[j] === w);
      const prefix =
        title.length >= words.length &&
        words.every((w, j) => (j < words.length - 1 ? title[j] === w : (title[j] ?? '').startsWith(w)));
      const tier = exactTitle ? 0 : prefix ? 1 : 2;
      const inTitle = words.every((w) => title.some((t) => t.startsWith(w)));
      return { id: d.id, key: [tier, -level(d), inTitle ? 0 : 1, distanceFrom(centre, d.lat, d.lon)] };
    })
    .sort((a, b) => {
      for (let k2 = 0; k2 < a.key.length; k2++)
        if (a.key[k2] !== b.key[k2]) return (a.key[k2] as number) - (b.key[k2] as number);
      return 0;
    });
}

/**
 * A page against the plain ranking. The ranking says nothing past distance, and the index packs its
 * whole key into one number, where distances closer than about 1e-10 degrees (a few micrometres)
 * are equal; the test data puts many documents at one spot or at mirrored spots. So documents whose
 * keys are equal to that precision may come in any order (the index keeps its own, the same on every
 * page): position by position the page must hold a document with the key the plain ranking has there,
 * and none twice.
 */
function expectPage(
  got: string[],
  docs: SearchDoc[],
  text: string,
  bounds: Bounds | null,
  [offset, limit]: readonly [number, number],
): void {
  const all = ranked(docs, text, bounds);
  const keyOf = new Map(all.map((e) => [e.id, e.key]));
  const label = `${text} ${JSON.stringify(bounds)} ${offset}`;
  const want = all.slice(offset, offset + limit);
  expect(new Set(got).size, label).toBe(got.length);
  expect(got.length, label).toBe(want.length);
  got.forEach((id, position) => {
    const key = keyOf.get(id);
    const wanted = want[position]?.key ?? [];
    const same =
      key !== undefined &&
      key.slice(0, 3).every((part, k) => part === wanted[k]) &&
      Math.abs((key[3] ?? 0) - (wanted[3] ?? 0)) <= 1e-9;
    expect(same, `${label}: ${id} at ${position} has ${String(key)}, the ranking ${String(wanted)}`).toBe(
      true,
    );
  });
}

describe('MemorySearchIndex ranking', () => {
  it('ranks an exact title first, then title prefixes, then promoted, hot and rated, then nearer', async () => {
    const index = await build([
      doc({ id: 'far-other', title: 'Harbor Lights', type: 'bakery', lat: 40.9 }),
      doc({ id: 'promo-other', title: 'Sweet Things Bakery', promo: 1, lat: 40.9 }),
      doc({ id: 'prefix', title: 'Bakery Street Deli', lat: 40.9 }),
      doc({ id: 'exact', title: 'Bakery', lat: 41.5 }),
      doc({ id: 'near-other', title: 'Crumbs', type: 'bakery', lat: 40.751 }),
      doc({ id: 'rated-other', title: 'Loaf', type: 'bakery', rating: 80, lat: 41.5 }),
      doc({ id: 'hot-other', title: 'Oven', type: 'bakery', beamtype: 1, lat: 41.5 }),
    ]);
    // centred on 40.8: near-other is 0.05 degrees from it, far-other 0.1
    const bounds = { south: 40.0, west: -74.1, north: 41.6, east: -73.9 };
    expect(ids(index, 'bakery', { bounds })).toEqual([
      'exact',
      'prefix',
      'promo-other',
      'hot-other',
      'rated-other',
      'near-other',
      'far-other',
    ]);
  });

  it('ranks matches in the title before matches in the type or address, at the same level', async () => {
    const index = await build([
      doc({ id: 'address', title: 'Corner Shop', address: '1 Fox Lane', lat: 40.7501 }),
      doc({ id: 'title', title: 'The Fox', lat: 40.8 }),
    ]);
    expect(ids(index, 'fox', { bounds: { south: 40, west: -75, north: 41, east: -73 } })).toEqual([
      'title',
      'address',
    ]);
  });

  it('needs every word of the query, each as a prefix of some word', async () => {
    const index = await build([
      doc({ id: 'a', title: 'Golden Fox', type: 'bar' }),
      doc({ id: 'b', title: 'Golden Hen', type: 'bakery' }),
    ]);
    expect(ids(index, 'gol fo')).toEqual(['a']);
    expect(ids(index, 'golden bak')).toEqual(['b']);
    expect(ids(index, 'golden zebra')).toEqual([]);
  });

  it('finds a word with one typo only when the exact words find few, and ranks typo matches last', async () => {
    const index = await build([
      doc({ id: 'bakery', title: 'Crumbs', type: 'bakery' }),
      doc({ id: 'bakers', title: 'Bakers Dozen' }),
    ]);
    expect(ids(index, 'bakry')).toEqual(['bakery']);
    expect(ids(index, 'baker')).toEqual(['bakers', 'bakery']);
    // 'bakre' finds nothing exactly: both come by one typo ('baker', 'bakery')
    expect(ids(index, 'bakre').sort()).toEqual(['bakers', 'bakery']);
  });

  it('filters by supertype and leaves events out unless asked, and ended events always', async () => {
    const index = await build([
      doc({ id: 'svc', title: 'Jazz Lessons', supertype: 'service', type: 'music_teacher' }),
      doc({
        id: 'ev',
        title: 'Jazz Night',
        kind: DOC_EVENT,
        supertype: 'event',
        type: 'concert',
        startDate: NOW + 1,
        endDate: NOW + 3600_000,
      }),
      doc({
        id: 'old',
        title: 'Jazz Past',
        kind: DOC_EVENT,
        supertype: 'event',
        type: 'concert',
        startDate: NOW - 7200_000,
        endDate: NOW - 1,
      }),
    ]);
    expect(ids(index, 'jazz')).toEqual(['svc']);
    expect(ids(index, 'jazz', { includeEvents: true }).sort()).toEqual(['ev', 'svc']);
    expect(ids(index, 'jazz', { includeEvents: true, supertype: 'event' })).toEqual(['ev']);
    expect(ids(index, 'jazz', { supertype: 'service' })).toEqual(['svc']);
  });

  it('ranks by distance from `near` when there are no bounds', async () => {
    const index = await build([
      doc({ id: 'nanjing', title: 'Coffee Corner', lat: 32.06, lon: 118.79 }),
      doc({ id: 'newyork', title: 'Coffee Corner', lat: 40.73, lon: -73.99 }),
      doc({ id: 'obeid', title: 'Coffee Corner', lat: 13.18, lon: 30.22 }),
    ]);
    expect(ids(index, 'coffee', { near: { lat: 40.71, lon: -74.0 } })).toEqual([
      'newyork',
      'obeid',
      'nanjing',
    ]);
    expect(ids(index, 'coffee', { near: { lat: 31.2, lon: 121.5 } })[0]).toBe('nanjing');
    // bounds decide where distance is measured from when both are given
    const paris = { south: 48.8, west: 2.2, north: 48.9, east: 2.5 };
    expect(ids(index, 'coffee', { bounds: paris, near: { lat: 40.71, lon: -74.0 } })).toEqual([]);
  });

  it('keeps to bounds across the antimeridian', async () => {
    const index = await build([
      doc({ id: 'east', title: 'Dateline Cafe', lat: -17, lon: 179.5 }),
      doc({ id: 'west', title: 'Dateline Cafe', lat: -17, lon: -179.5 }),
      doc({ id: 'away', title: 'Dateline Cafe', lat: -17, lon: 170 }),
    ]);
    const across = { south: -20, west: 178, north: -10, east: -178 };
    expect(ids(index, 'dateline', { bounds: across }).sort()).toEqual(['east', 'west']);
  });
});

describe('MemorySearchIndex paging', () => {
  const many = Array.from({ length: 300 }, (_, i) =>
    doc({
      id: `p${i}`,
      title: `Pier ${i}`,
      lat: 40 + (i % 17) * 0.01,
      lon: -74 + (i % 13) * 0.01,
      rating: (i % 5) * 20,
    }),
  );

  it('gives pages that follow on from each other, whatever the page size', async () => {
    const index = await build(many);
    const all = index.search(request('pier', { limit: 300 })).docs.map((d) => d.id);
    expect(all).toHaveLength(300);
    for (const size of [12, 24, 48, 96]) {
      const pages: string[] = [];
      for (let page = 0; page * size < 300; page++)
        pages.push(
          ...index.search(request('pier', { offset: page * size, limit: size })).docs.map((d) => d.id),
        );
      expect(pages).toEqual(all);
    }
    expect(index.search(request('pier')).total).toBe(300);
  });
});

describe('MemorySearchIndex broad queries (candidates from space)', () => {
  /** Enough documents that a one-letter prefix takes the spatial path. */
  const docs = Array.from({ length: 48_000 }, (_, i) =>
    doc({
      id: `d${i}`,
      title: `${i % 3 === 0 ? 'Sun' : 'Moon'} ${['Shop', 'Store', 'Stall', 'Bar'][i % 4]} ${i}`,
      lat: 40 + ((i * 7919) % 1000) / 1000,
      lon: -74 + ((i * 104729) % 1000) / 1000,
      rating: i % 11 === 0 ? 90 : null,
      beamtype: i % 97 === 0 ? 1 : 0,
      promo: i % 1001 === 0 ? 1 : 0,
    }),
  );

  it('answers exactly what a full scan ranks first', async () => {
    const index = await build(docs);
    // a wide area (candidates from space) and a small one (from postings or space, by estimate)
    const areas = [
      { south: 40.2, west: -73.8, north: 40.6, east: -73.3 },
      { south: 40.3, west: -73.6, north: 40.33, east: -73.57 },
    ];
    const pages = [
      [0, 10],
      [24, 24],
      [480, 12],
    ] as const;
    for (const bounds of areas) {
      for (const text of ['s', 'st', 'sun', 'sun s', 'm', 'moon st', 'bar 1']) {
        for (const [offset, limit] of pages) {
          const got = index.search(request(text, { bounds, offset, limit })).docs.map((d) => d.id);
          expectPage(got, docs, text, bounds, [offset, limit]);
        }
      }
    }
  });
});

describe('MemorySearchIndex browsing a supertype (no words)', () => {
  /** Every fifth a rental, the rest shops; enough that the levels' kd-trees are walked. */
  const docs = Array.from({ length: 30_000 }, (_, i) =>
    doc({
      id: `b${i}`,
      title: `${i % 5 === 0 ? 'Harbour Flat' : 'Corner Shop'} ${i}`,
      supertype: i % 5 === 0 ? 'rental' : 'business',
      type: i % 5 === 0 ? 'apartment' : 'shop',
      lat: 40 + ((i * 7919) % 1000) / 1000,
      lon: -74 + ((i * 104729) % 1000) / 1000,
      rating: i % 7 === 0 ? 80 : null,
      beamtype: i % 89 === 0 ? 1 : 0,
    }),
  );
  const rentals = docs.filter((d) => d.supertype === 'rental');

  it('lists the supertype in the bounds, ranked as any search is (level, then nearer)', async () => {
    const index = await build(docs);
    const areas = [
      { south: 40.2, west: -73.8, north: 40.6, east: -73.3 },
      { south: 40.3, west: -73.6, north: 40.4, east: -73.5 },
      null,
    ];
    for (const bounds of areas)
      for (const [offset, limit] of [
        [0, 12],
        [48, 24],
      ] as const) {
        const answer = index.search(request('', { supertype: 'rental', bounds, offset, limit }));
        expect(answer.docs.length).toBeGreaterThan(0);
        expect(answer.docs.every((d) => d.supertype === 'rental')).toBe(true);
        expectPage(
          answer.docs.map((d) => d.id),
          rentals,
          '',
          bounds,
          [offset, limit],
        );
      }
  });

  it('finds nothing for no words and no supertype', async () => {
    const index = await build(docs);
    expect(index.search(request('   ')).docs).toEqual([]);
  });
});

describe('MemorySearchIndex plans (postings, title hashes, space, and space giving up)', () => {
  // Short words only (typo tolerance starts at 5 letters), so a plain scan is the whole truth. Titles
  // are often exactly a query ('Sun', 'The Sun'), and the 'jobs' type sits only in the lowest level,
  // under a crowd of rated documents: space finds it last and must hand over to the postings.
  const WORDS = ['the', 'sun', 'suns', 'moon', 'shop', 'star', 'bar', 'barn'];
  const docs = Array.from({ length: 30_000 }, (_, i) => {
    const jobs = i % 7 === 0;
    const words = 1 + (i % 3);
    const title = Array.from(
      { length: words },
      (_, k) => WORDS[((i * 31 + k * 7) ^ (i >> 3)) % WORDS.length] as string,
    );
    if (i % 5 === 0) title.push(String(i % 50));
    return doc({
      id: `p${i}`,
      title: title.join(' '),
      type: jobs ? 'jobs' : 'shop',
      lat: 40 + ((i * 7919) % 1000) / 1000,
      lon: -74 + ((i * 104729) % 1000) / 1000,
      rating: jobs ? null : 20 + (i % 9) * 10,
      beamtype: !jobs && i % 41 === 0 ? 1 : 0,
      promo: !jobs && i % 997 === 0 ? 1 : 0,
    });
  });

  it('answers exactly what a full scan ranks first, whatever plan it takes', async () => {
    const index = await build(docs);
    const query = fc.oneof(
      fc.constantFrom(...WORDS, 'jobs', 'job', 'j', 's', 'su', 'the sun', 'the s', 'sun shop', 'bar 1'),
      fc
        .array(fc.constantFrom(...WORDS, 'jobs'), { minLength: 1, maxLength: 3 })
        .map((words) => words.join(' ')),
    );
    const area = fc.oneof(
      fc.constant(null),
      fc
        .tuple(
          fc.integer({ min: 0, max: 900 }),
          fc.integer({ min: 0, max: 900 }),
          fc.integer({ min: 20, max: 1000 }),
        )
        .map(([y, x, size]) => ({
          south: 40 + y / 1000,
          west: -74 + x / 1000,
          north: 40 + Math.min(1000, y + size) / 1000,
          east: -74 + Math.min(1000, x + size) / 1000,
        })),
    );
    const page = fc.constantFrom([0, 10], [12, 12], [120, 24]);
    fc.assert(
      fc.property(query, area, page, (text, bounds, [offset, limit]) => {
        const answer = index.search(request(text, { bounds, offset, limit }));
        expectPage(
          answer.docs.map((d) => d.id),
          docs,
          text,
          bounds,
          [offset, limit],
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe('MemorySearchIndex changes', () => {
  it('finds a document by id for every write, past the slots that deletes freed', async () => {
    const many = Array.from({ length: 120_000 }, (_, i) => doc({ id: `m${i}`, title: `Maple ${i}` }));
    const index = await build(many);
    expect(index.size).toBe(120_000);
    // every third id deleted: the probes of the others go past freed slots
    const gone = many.filter((_, i) => i % 3 === 0).map((d) => d.id);
    index.apply('point', gone, []);
    expect(index.size).toBe(120_000 - gone.length);
    // deleting again changes nothing; replacing a survivor moves it to the delta
    index.apply('point', gone.slice(0, 10), []);
    expect(index.size).toBe(120_000 - gone.length);
    index.apply('point', ['m119998'], [doc({ id: 'm119998', title: 'Oak 119998' })]);
    expect(index.size).toBe(120_000 - gone.length);
    expect(ids(index, 'maple 119998')).not.toContain('m119998');
    expect(ids(index, 'oak')).toEqual(['m119998']);
    expect(ids(index, 'maple 3')).not.toContain('m3');
    expect(ids(index, 'maple 4')).toContain('m4');
  });
  it('applies new, changed and deleted documents, and rebuilds when the delta is full', async () => {
    const index = await build([doc({ id: 'a', title: 'Alpha Cafe' }), doc({ id: 'b', title: 'Beta Cafe' })]);
    index.apply('point', ['c'], [doc({ id: 'c', title: 'Gamma Cafe', type: 'cafe' })]);
    expect(ids(index, 'gamma')).toEqual(['c']);
    index.apply('point', ['a'], [doc({ id: 'a', title: 'Aleph Cafe' })]);
    expect(ids(index, 'alpha')).toEqual([]);
    expect(ids(index, 'aleph')).toEqual(['a']);
    index.apply('point', ['b'], []);
    expect(ids(index, 'cafe').sort()).toEqual(['a', 'c']);
    // applying the same change twice changes nothing
    index.apply('point', ['c'], [doc({ id: 'c', title: 'Gamma Cafe', type: 'cafe' })]);
    expect(ids(index, 'cafe').sort()).toEqual(['a', 'c']);

    const flood = Array.from({ length: DELTA_LIMIT + 10 }, (_, i) =>
      doc({ id: `f${i}`, title: `Flood ${i}` }),
    );
    index.apply(
      'point',
      flood.map((d) => d.id),
      flood,
    );
    // a change during the rebuild is kept
    index.apply('point', ['f0'], [doc({ id: 'f0', title: 'Renamed During Rebuild' })]);
    await index.settled();
    expect(index.rebuilds).toBe(1);
    expect(index.deltaSize).toBeLessThan(DELTA_LIMIT);
    expect(ids(index, 'renamed')).toEqual(['f0']);
    // counted one by one (past the count limit a total this size is estimated)
    expect(index.search(request('flood', { countLimit: 100_000 })).total).toBe(DELTA_LIMIT + 9);
    expect(ids(index, 'aleph')).toEqual(['a']);
    expect(ids(index, 'beta')).toEqual([]);
  });

  it('keeps writes made while a rebuild copies the documents, before and after the copy reached them', async () => {
    const base = Array.from({ length: 25_000 }, (_, i) => doc({ id: `b${i}`, title: `Base ${i}` }));
    const index = await build(base);
    const flood = Array.from({ length: DELTA_LIMIT + 1 }, (_, i) => doc({ id: `n${i}`, title: `New ${i}` }));
    index.apply(
      'point',
      flood.map((d) => d.id),
      flood,
    );
    // the rebuild has copied its first batch of documents and yielded: b5 is copied, b24000 is not
    index.apply('point', ['b5'], [doc({ id: 'b5', title: 'Early Rename' })]);
    index.apply('point', ['b24000'], [doc({ id: 'b24000', title: 'Late Rename' })]);
    index.apply('point', ['b7'], []);
    await index.settled();
    expect(index.rebuilds).toBe(1);
    expect(ids(index, 'early rename')).toEqual(['b5']);
    expect(ids(index, 'late rename')).toEqual(['b24000']);
    // the old names are gone ('base 5' still finds b50, b51… by prefix)
    expect(ids(index, 'base 5', { limit: 200 })).not.toContain('b5');
    expect(ids(index, 'base 24000', { limit: 200 })).not.toContain('b24000');
    expect(ids(index, 'base 7', { limit: 200 })).not.toContain('b7');
    expect(index.search(request('base', { countLimit: 100_000 })).total).toBe(25_000 - 3);
    expect(index.size).toBe(25_000 - 1 + DELTA_LIMIT + 1);
  });

  it('tracks the events a point hosts', async () => {
    const index = await build([
      doc({ id: 'hall', title: 'Hall' }),
      doc({
        id: 'e1',
        title: 'Gig',
        kind: DOC_EVENT,
        supertype: 'event',
        hostId: 'hall',
        startDate: NOW,
        endDate: NOW + 1,
      }),
    ]);
    expect(index.eventsOf('hall').map((e) => e.id)).toEqual(['e1']);
    index.apply('event', ['e1'], []);
    expect(index.eventsOf('hall')).toEqual([]);
    index.apply(
      'event',
      ['e2'],
      [
        doc({
          id: 'e2',
          title: 'Show',
          kind: DOC_EVENT,
          supertype: 'event',
          hostId: 'hall',
          startDate: NOW,
          endDate: NOW + 1,
        }),
      ],
    );
    expect(index.eventsOf('hall').map((e) => e.id)).toEqual(['e2']);
  });
});

describe('typo-tolerant words over many ranges', () => {
  it('matches exactly the terms within one edit, whatever the number of ranges', async () => {
    const words = ['market', 'marker', 'makret', 'marked', 'basket', 'masker', 'markets', 'mark', 'rocket'];
    const index = await build(words.map((w, i) => doc({ id: `w${i}`, title: `${w} place` })));
    const found = ids(index, 'markte place', { limit: 20 }).map((id) => words[Number(id.slice(1))]);
    // 'markte' is one swap from 'market' (and so from the start of 'markets'), one letter too many for
    // 'marke', the start of 'marked' and 'marker'; 'makret', 'mark' and the others are further
    expect(found.sort()).toEqual(['marked', 'marker', 'market', 'markets']);
  });
});

describe('posts in the index', () => {
  const post = (id: string, title: string, endDate: number | null): SearchDoc =>
    doc({ id, title, kind: DOC_POST, supertype: 'post', type: 'deal', endDate });

  it('finds a post by its title and its category until it expires, in the segment and in the delta', async () => {
    const index = await build([
      post('built-expiring', 'Kettle clearance', NOW + 1000),
      post('built-forever', 'Kettle repairs', null),
      doc({ id: 'shop', title: 'Kettle shop' }),
    ]);
    index.apply('post', ['delta-expiring'], [post('delta-expiring', 'Kettle swap', NOW + 1000)]);
    const all = ['built-expiring', 'built-forever', 'delta-expiring', 'shop'];
    expect(ids(index, 'kettle').sort()).toEqual(all);
    // 'deal' is the category's key and its name: every post is one, the shop is not
    expect(ids(index, 'deal').sort()).toEqual(['built-expiring', 'built-forever', 'delta-expiring']);
    expect(ids(index, 'kettle', { supertype: 'post' }).sort()).toEqual(all.filter((id) => id !== 'shop'));
    // events are not asked for: posts are found anyway
    expect(ids(index, 'kettle', { includeEvents: false })).toHaveLength(4);
    // the moment they expire, with nothing written
    expect(ids(index, 'kettle', { now: NOW + 999 })).toHaveLength(4);
    expect(ids(index, 'kettle', { now: NOW + 1000 }).sort()).toEqual(['built-forever', 'shop']);
    expect(index.search(request('kettle', { now: NOW + 1000 })).total).toBe(2);
  });

  it('replaces and removes posts by id apart from points with the same id, through a rebuild too', async () => {
    const index = await build([
      post('same', 'Lamp for sale', null),
      doc({ id: 'same', title: 'Lamp store' }),
    ]);
    index.apply('post', ['same'], [post('same', 'Desk for sale', null)]);
    expect(index.search(request('lamp')).docs.map((d) => [d.id, d.supertype])).toEqual([
      ['same', 'business'],
    ]);
    expect(index.search(request('desk')).docs.map((d) => d.kind)).toEqual([DOC_POST]);
    index.apply('post', ['same'], []);
    expect(ids(index, 'desk')).toEqual([]);
    expect(ids(index, 'lamp')).toEqual(['same']);

    // past the delta's limit the segment is rebuilt: posts keep their kind and expiry
    const many = Array.from({ length: DELTA_LIMIT + 1 }, (_, i) => post(`p${i}`, `Sofa ${i}`, NOW + 5000));
    index.apply(
      'post',
      many.map((d) => d.id),
      many,
    );
    await index.settled();
    expect(index.rebuilds).toBe(1);
    expect(index.search(request('sofa', { limit: 1 })).total).toBe(DELTA_LIMIT + 1);
    expect(index.search(request('sofa', { now: NOW + 5000 })).total).toBe(0);
    expect(index.size).toBe(DELTA_LIMIT + 2);
  });
});
