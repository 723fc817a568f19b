import { describe, it, expect } from 'vitest';
import { CATEGORIES, categoriesFor, findCategory, type CategorySupertype } from './categories';
import { POINT_SUPERTYPES } from './supertypes';

const ALL_SUPERTYPES: readonly CategorySupertype[] = [...POINT_SUPERTYPES, 'event'];

const keysOf = (supertype: CategorySupertype): string[] => categoriesFor(supertype).map((c) => c.key);

/** The custom ("other") entry each supertype ends with. */
const CUSTOM_KEY: Readonly<Record<CategorySupertype, string>> = {
  business: 'custom',
  poi: 'custom_poi',
  virtualstore: 'custom_vs',
  service: 'custom',
  experience: 'custom',
  rental: 'custom',
  helprequest: 'custom',
  incident: 'custom',
  event: 'custom',
};

describe('category taxonomy (map-and-search §3)', () => {
  it('covers every point supertype and events', () => {
    expect(Object.keys(CATEGORIES).sort()).toEqual([...ALL_SUPERTYPES].sort());
    for (const supertype of ALL_SUPERTYPES) expect(categoriesFor(supertype).length).toBeGreaterThan(0);
  });

  it('has the spec’s example business types, about 220 in all', () => {
    const keys = keysOf('business');
    for (const key of [
      'bakery',
      'bank',
      'bar',
      'cafe',
      'hospital',
      'hotel',
      'restaurant',
      'pharmacy',
      'museum',
      'school',
      'gym',
      'custom',
    ]) {
      expect(keys).toContain(key);
    }
    expect(keys.length).toBeGreaterThanOrEqual(200);
    expect(keys.length).toBeLessThanOrEqual(240);
  });

  it('has the spec’s example point-of-interest types, about 45 in all', () => {
    const keys = keysOf('poi');
    for (const key of [
      'bench',
      'campsite',
      'cemetery',
      'fountain',
      'harbor',
      'park',
      'playground',
      'picnic_site',
      'custom_poi',
    ]) {
      expect(keys).toContain(key);
    }
    expect(keys.length).toBeGreaterThanOrEqual(40);
    expect(keys.length).toBeLessThanOrEqual(50);
  });

  it('lists exactly the spec’s event types, in order', () => {
    expect(keysOf('event')).toEqual([
      'art',
      'band_performance',
      'business',
      'causes',
      'childrens',
      'comedy',
      'concert',
      'crafts',
      'dance',
      'drinks',
      'education',
      'exhibition',
      'farmers_market',
      'film',
      'fitness',
      'food',
      'fundraising_auction',
      'fundraising_dinner_party',
      'games',
      'garage_sale',
      'gardening',
      'gay_parade',
      'hackathon',
      'health',
      'home',
      'literature',
      'local_sport_competition',
      'masquerade',
      'music',
      'networking',
      'open_house',
      'party',
      'religion',
      'shopping',
      'speed_dating',
      'sports',
      'theatre',
      'wellness',
      'wine_tasting',
      'custom',
    ]);
  });

  it('lists the spec’s help request, incident and virtual store categories', () => {
    expect(keysOf('helprequest')).toEqual(['jobs', 'tasks', 'custom']);
    expect(keysOf('incident')).toEqual([
      'accident',
      'injury',
      'contagious_area',
      'crime',
      'abuse',
      'assault',
      'vandalism',
      'outbreak',
      'natural_disaster',
      'dangerous_zone',
      'custom',
    ]);
    expect(keysOf('virtualstore')).toEqual([
      'application',
      'delivery_service',
      'online_shop',
      'website',
      'custom_vs',
    ]);
  });

  it('has unique snake_case keys within each supertype', () => {
    for (const supertype of ALL_SUPERTYPES) {
      const keys = keysOf(supertype);
      expect(new Set(keys).size, supertype).toBe(keys.length);
      for (const key of keys) expect(key, `${supertype}/${key}`).toMatch(/^[a-z0-9_]+$/);
    }
  });

  it('ends every supertype with its custom entry', () => {
    for (const supertype of ALL_SUPERTYPES) {
      expect(keysOf(supertype).at(-1), supertype).toBe(CUSTOM_KEY[supertype]);
    }
    expect(findCategory('business', 'custom')?.name).toBe('Other business');
    expect(findCategory('poi', 'custom_poi')?.name).toBe('Other place');
  });

  it('gives every entry a name and a maki or temaki icon', () => {
    for (const supertype of ALL_SUPERTYPES) {
      for (const category of categoriesFor(supertype)) {
        const where = `${supertype}/${category.key}`;
        expect(category.name.trim(), where).not.toBe('');
        expect(category.icon, where).toMatch(/^(maki|temaki)-[a-z0-9_-]+$/);
      }
    }
  });

  it('records the OSM tag for business and point-of-interest types', () => {
    expect(findCategory('business', 'bakery')?.osm).toBe('shop=bakery');
    expect(findCategory('business', 'gym')?.osm).toBe('leisure=fitness_centre');
    expect(findCategory('poi', 'campsite')?.osm).toBe('tourism=camp_site');
    for (const supertype of ['business', 'poi'] as const) {
      for (const category of categoriesFor(supertype)) {
        if (category.key === CUSTOM_KEY[supertype]) expect(category.osm).toBeUndefined();
        else
          expect(category.osm, `${supertype}/${category.key}`).toMatch(
            /^[a-z_:]+=[a-z0-9_-]+( \+ [a-z_:]+=[a-z0-9_-]+)*$/,
          );
      }
    }
  });

  it('finds a category by supertype and key', () => {
    const bakery = findCategory('business', 'bakery');
    expect(bakery).toBeDefined();
    expect(bakery?.name).toBe('Bakery');
    expect(bakery?.icon).toMatch(/^(maki|temaki)-/);
    expect(findCategory('event', 'wine_tasting')?.name).toBe('Wine Tasting');
    expect(findCategory('business', 'no_such_type')).toBeUndefined();
    expect(findCategory('nonsense', 'bakery')).toBeUndefined();
  });
});
