import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../shared/api/search';
import { SearchFirstPaint } from './FirstPaint';

function cafe(n: number): SearchResult {
  return {
    marker: {
      id: `cafe${n}`,
      lng: -9.14,
      lat: 38.71,
      title: `Café ${n}`,
      type: 'cafe',
      subtype: '',
      classes: '',
      select: false,
      data: { hotpointclickurl: `/b/cafe${n}` },
    },
    supertype: 'business',
    address: `Rua Augusta ${n}, Lisbon`,
    cover_url: `/media/cover${n}.webp`,
    stars_rating: null,
    healthdata: { status: 0 },
    start_date: null,
    name: `Café ${n}`,
    class: 'cafe',
    subclass: '',
    beamtype: 0,
  };
}

describe('a search page painted in tiles', () => {
  const markup = renderToStaticMarkup(
    <SearchFirstPaint
      data={{
        query: { keywords: 'cafe', supertype: null, pageNumber: 1, pageSize: 12 },
        page: {
          results: Array.from({ length: 6 }, (_, i) => cafe(i + 1)),
          posts_total: 6,
          posts_total_exact: true,
          page_current: 1,
          page_total: 1,
          page_size: 12,
        },
        mode: 'tile',
      }}
      loc={undefined}
    />,
  );
  const covers = [...markup.matchAll(/<img [^>]*>/g)].map((match) => match[0]);

  it('fetches the covers on the screen at once with the page, the first one first, and the rest when scrolled to', () => {
    expect(covers).toHaveLength(6);
    // HTML attribute names are read case-blind: React writes fetchPriority
    expect(covers[0]?.toLowerCase()).toContain('fetchpriority="high"');
    expect(covers.slice(0, 4).every((img) => img.includes('loading="eager"'))).toBe(true);
    expect(covers.slice(4).every((img) => img.includes('loading="lazy"'))).toBe(true);
    expect(covers.slice(1).some((img) => img.toLowerCase().includes('fetchpriority="high"'))).toBe(false);
  });
});
