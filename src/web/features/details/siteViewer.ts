import { linkView } from '../../../shared/details/text';
import type { PointDetails } from './schemas';

export interface ViewableSite {
  title: string;
  url: string;
  /** only https pages are shown inside our page; http ones open in a tab. */
  embeddable: boolean;
}

/**
 * The sites the full-screen page's viewer offers: the point's website, then its external sites (which
 * the API sends only to the owner and consultant, §6), each once, and only those §5 makes links. Help
 * requests and incidents have none (§6).
 */
export function viewableSites(point: PointDetails, host: string): ViewableSite[] {
  if (point.supertype === 'helprequest' || point.supertype === 'incident') return [];
  const candidates = [
    { title: 'Website', url: point.link_website ?? '' },
    ...(point.xsites_json?.data ?? []).map((site) => ({ title: site.title, url: site.url })),
  ];
  const seen = new Set<string>();
  const sites: ViewableSite[] = [];
  for (const candidate of candidates) {
    const href = linkView(candidate.url, host).href;
    if (href === null || seen.has(href)) continue;
    seen.add(href);
    sites.push({ title: candidate.title.trim() || href, url: href, embeddable: /^https:\/\//i.test(href) });
  }
  return sites;
}
