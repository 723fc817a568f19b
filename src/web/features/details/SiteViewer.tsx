import { useState } from 'react';
import type { WebsiteView } from '../../../shared/website';
import { OwnerSite } from '../website/OwnerSite';
import type { PointDetails } from './schemas';
import { Section } from './Section';
import { viewableSites } from './siteViewer';

/**
 * The site viewer of the full-screen page (map-and-search §2): the point's sites, each one opened
 * inside the page on request, in a sandboxed frame. Nothing loads until asked, and every site keeps a
 * link to open it in its own tab (many sites refuse to be framed, and without JavaScript the links
 * are what works).
 */
export function SiteViewer({
  point,
  host,
  website,
}: {
  point: PointDetails;
  host: string;
  /**
   * The point's own site (issue 20) as the server read it with the page; undefined when the page was
   * rendered in the browser (the site is then read on its own), null when the point can have none.
   */
  website?: WebsiteView | null;
}) {
  const sites = viewableSites(point, host);
  const [shown, setShown] = useState<string | null>(null);
  const ownSite = point.supertype !== 'helprequest' && point.supertype !== 'incident' && website !== null;
  if (sites.length === 0 && !ownSite) return null;
  const current = sites.find((site) => site.url === shown) ?? null;
  return (
    <Section title="Website" className="site-viewer">
      {ownSite && <OwnerSite pointId={point.id} initial={website} />}
      {sites.length > 0 && (
        <ul className="site-viewer__list">
          {sites.map((site) => (
            <li key={site.url} className="site-viewer__item">
              <span className="site-viewer__name">{site.title}</span>
              {site.embeddable && (
                <button
                  type="button"
                  className="link-button"
                  aria-pressed={site.url === shown}
                  onClick={() => setShown(site.url === shown ? null : site.url)}
                >
                  {site.url === shown ? 'Hide' : 'Show here'}
                </button>
              )}
              <a href={site.url} target="_blank" rel="noopener noreferrer">
                Open in a new tab<span className="visually-hidden">: {site.title}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {current && (
        <iframe
          className="site-viewer__frame"
          src={current.url}
          title={`${current.title} of ${point.title}`}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
          referrerPolicy="no-referrer"
          loading="lazy"
        />
      )}
    </Section>
  );
}
