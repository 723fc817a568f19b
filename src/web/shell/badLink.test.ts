import { describe, expect, it } from 'vitest';
import { badLinkMessage } from './badLink';

const path = (data: unknown) => `/maps/coffee/data=${encodeURIComponent(JSON.stringify(data))}`;

describe('what a bad link says', () => {
  it('names a supertype that does not exist and lists those that do', () => {
    const message = badLinkMessage(
      path({ search: { supertype: 'spaceship' } }),
      'search.supertype: not a searchable supertype',
    );
    expect(message).toContain('“spaceship” is not a kind of place');
    expect(message).toContain('rental');
  });

  it('says a latitude is off the globe', () => {
    expect(
      badLinkMessage(path({}), 'search.southwest.lat: Too small: expected number to be >=-90'),
    ).toContain('latitudes run from -90 to 90');
  });

  it('keeps the parser reason for anything else', () => {
    expect(badLinkMessage('/maps/data=%7B', 'data is not valid JSON')).toContain('(data is not valid JSON)');
  });
});
