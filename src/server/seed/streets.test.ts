import { describe, expect, it } from 'vitest';
import { STREET_NAMES, STREET_SUFFIXES } from './content';
import { Random } from './random';
import { localStreet } from './streets';

describe('localStreet', () => {
  it("given an American city, when an address is drawn, then it is the seed's English street as before", () => {
    const a = new Random(42);
    const b = new Random(42);
    expect(localStreet(a, 'US')).toBe(`${b.int(1, 2400)} ${b.pick(STREET_NAMES)} ${b.pick(STREET_SUFFIXES)}`);
  });

  it('given any country, when an address is drawn, then the random stream moves as far as for an American one', () => {
    for (const country of [
      'DE',
      'FR',
      'MX',
      'IT',
      'BR',
      'NL',
      'RU',
      'UA',
      'PL',
      'TR',
      'IR',
      'EG',
      'IN',
      'CN',
      'JP',
      'KR',
      'ID',
      'VN',
      'TH',
      'ZZ',
    ]) {
      const local = new Random(7);
      const english = new Random(7);
      localStreet(local, country);
      localStreet(english, 'US');
      expect(local.next(), country).toBe(english.next());
    }
  });

  it.each([
    ['DE', /^[A-ZÄÖÜ][a-zäöüß]+(straße|weg|gasse|allee|platz) \d{1,3}$/],
    ['FR', /^\d{1,3} (Rue|Avenue|Boulevard|Place|Allée) /],
    ['MX', /^(Calle|Avenida|Paseo|Plaza|Camino) .+ \d{1,3}$/],
    ['IT', /^(Via|Corso|Piazza|Viale|Vicolo) .+ \d{1,3}$/],
    ['IR', /^[A-Z][a-z]+ (St|Blvd|Alley|Sq), No\. \d{1,3}$/],
    ['JP', /^\d-\d{1,2}-\d{1,2} [A-Z][a-z]+$/],
  ])('given a city in %s, when addresses are drawn, then they are in its own form', (country, form) => {
    const rng = new Random(3);
    for (let drawn = 0; drawn < 50; drawn++) expect(localStreet(rng, country)).toMatch(form);
  });
});
