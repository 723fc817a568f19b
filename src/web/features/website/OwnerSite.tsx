import { Suspense, lazy, useContext } from 'react';
import { RenderSideContext } from '../../ssr/renderSide';
import { SitePartBody, partHasContent, partTitle } from './SitePart';
import { loadSiteEditor, loadedSiteEditor } from './siteEditorLoader';
import type { SiteView } from './websiteApi';
import './website.css';

const LazySiteEditor = lazy(() => loadSiteEditor().then((module) => ({ default: module.OwnerSiteEditor })));

/**
 * The point's own site (issue 20) inside the full-screen page's site viewer.
 *
 * For a visitor (not a controller) of the server-rendered page the site is static: the server writes
 * its enabled parts as HTML and the browser keeps that HTML as it is, without hydrating it or loading
 * any of the editor's code. Those who control the point get the editor (./OwnerSiteEditor), loaded on
 * demand; so does a page rendered in the browser (the app), which reads the site itself.
 */
export function OwnerSite({ pointId, initial }: { pointId: string; initial: SiteView | null | undefined }) {
  const side = useContext(RenderSideContext);
  if (initial === null) return null;
  if (initial !== undefined && !initial.editable && side !== null) {
    return <VisitorSite site={initial} side={side} />;
  }
  const Editor = loadedSiteEditor()?.OwnerSiteEditor;
  if (Editor) return <Editor pointId={pointId} initial={initial} />;
  return (
    <Suspense fallback={null}>
      <LazySiteEditor pointId={pointId} initial={initial} />
    </Suspense>
  );
}

/**
 * A visitor's site: its enabled parts with something to show. The server writes them; the browser,
 * hydrating, renders the same container with an empty inner HTML, which React leaves as the server
 * wrote it (an element with inner HTML has no children to hydrate), so none of it runs in the browser.
 */
function VisitorSite({ site, side }: { site: SiteView; side: 'server' | 'client' }) {
  const shown = site.parts.filter((part) => part.enabled && partHasContent(part, site.auto));
  if (shown.length === 0) return null;
  if (side === 'client')
    return (
      <div
        className="website"
        data-website-version={site.version}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: '' }}
      />
    );
  return (
    <div className="website" data-website-version={site.version}>
      {shown.map((part) => {
        const headingId = `website-part-${site.xpointid}-${part.part_idx}`;
        return (
          <section
            key={part.part_idx}
            className="website-part"
            aria-labelledby={headingId}
            data-part={part.part_idx}
          >
            <div className="website-part__head">
              <h3 id={headingId} className="website-part__title">
                {partTitle(part)}
              </h3>
            </div>
            <SitePartBody part={part} auto={site.auto} />
          </section>
        );
      })}
    </div>
  );
}
