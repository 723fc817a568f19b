import { describe, expect, it } from 'vitest';
import type { PointDetails } from './schemas';
import { viewableSites } from './siteViewer';

const base = {
  supertype: 'business',
  link_website: 'https://bluedoor.test',
  xsites_json: {
    data: [
      { icon: 'ig', title: 'Instagram', url: 'https://instagram.test/bluedoor' },
      { icon: 'web', title: 'Same site', url: 'https://bluedoor.test' },
      { icon: 'old', title: 'Old shop', url: 'http://old.bluedoor.test' },
      { icon: 'bad', title: 'Script', url: 'javascript:alert(1)' },
    ],
  },
} as unknown as PointDetails;

describe('viewableSites', () => {
  it('lists the website, then the external sites, each once and only when they are links', () => {
    expect(viewableSites(base, 'xpoint.test')).toEqual([
      { title: 'Website', url: 'https://bluedoor.test', embeddable: true },
      { title: 'Instagram', url: 'https://instagram.test/bluedoor', embeddable: true },
      // http pages open in their own tab: a https page may not frame them
      { title: 'Old shop', url: 'http://old.bluedoor.test', embeddable: false },
    ]);
  });

  it('gives help requests and incidents no sites (§6)', () => {
    expect(viewableSites({ ...base, supertype: 'helprequest' }, 'xpoint.test')).toEqual([]);
    expect(viewableSites({ ...base, supertype: 'incident' }, 'xpoint.test')).toEqual([]);
  });

  it('has nothing to show for a point without links', () => {
    expect(
      viewableSites({ ...base, link_website: 'www.shop.test', xsites_json: null }, 'xpoint.test'),
    ).toEqual([]);
  });
});
