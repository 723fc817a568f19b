import { describe, expect, it } from 'vitest';
import { emptyPart, type WebsiteAutoContent } from '../../../shared/website';
import { partHasContent, partTitle } from './SitePart';

const NOTHING: WebsiteAutoContent = { description: null, hours: null, events: [], posts: [], reviews: [] };

describe('what a site part shows', () => {
  it('is titled by the owner, else by its role', () => {
    const part = emptyPart(2);
    expect(partTitle(part)).toBe('Opening hours');
    part.fields.title = '  When we bake ';
    expect(partTitle(part)).toBe('When we bake');
  });

  it('is left out for visitors when neither the owner nor the point has anything for it', () => {
    expect(partHasContent(emptyPart(2), NOTHING)).toBe(false);
    expect(partHasContent(emptyPart(2), { ...NOTHING, hours: 'Mo-Fr 08:00-17:00' })).toBe(true);
    expect(partHasContent(emptyPart(6), { ...NOTHING, hours: 'Mo-Fr 08:00-17:00' })).toBe(false);
    const own = emptyPart(6);
    own.fields.line1 = 'Fresh every day';
    expect(partHasContent(own, NOTHING)).toBe(true);
    const pictured = emptyPart(5);
    pictured.pictures = [
      { pic_idx: 1, url: '/media/a.webp', small: null, fallback: null, width: 1, height: 1 },
    ];
    expect(partHasContent(pictured, NOTHING)).toBe(true);
  });
});
