import { Suspense, lazy, useEffect, useId, useState } from 'react';
import {
  WEBSITE_SECTION_ERROR_SHOWN_MS,
  websiteZipPath,
  type WebsitePartData,
} from '../../../shared/website';
import { errorText } from '../../lib/query';
import { ErrorArea, useErrorArea } from './ErrorArea';
import { SitePartBody, partHasContent, partTitle } from './SitePart';
import { loadSite, setSection, type SiteView, type WriteResult } from './websiteApi';
import './website.css';

/** The part editor (the form, the pictures with drag and keyboard reordering): loaded when first opened. */
const PartEditor = lazy(() => import('./PartEditor'));

/**
 * The point's own site (issue 20) as its controllers see it, and wherever the page is rendered in the
 * browser: its enabled parts, and for those who control the point also the parts that are off, a
 * switch per part, and each part edited in place (view → edit → view); their failures show in the
 * error area (social §8). Loaded on demand by ./OwnerSite: a visitor of the server-rendered page
 * never loads it (nor the query and API code it needs).
 */
export function OwnerSiteEditor({
  pointId,
  initial,
}: {
  pointId: string;
  initial: SiteView | null | undefined;
}) {
  const [site, setSite] = useState<SiteView | null>(initial ?? null);
  const [editing, setEditing] = useState<number | null>(null);
  const errors = useErrorArea();

  // a page rendered in the browser (not by the server) has no site in its data: read it
  useEffect(() => {
    if (initial !== undefined) return;
    const abort = new AbortController();
    loadSite(pointId, abort.signal).then(setSite, () => undefined);
    return () => abort.abort();
  }, [pointId, initial]);

  if (site === null) return null;
  const shown = site.parts.filter(
    (part) => site.editable || (part.enabled && partHasContent(part, site.auto)),
  );
  if (shown.length === 0) return null;

  const applied = (result: WriteResult) =>
    setSite((current) =>
      current === null
        ? current
        : {
            ...current,
            version: result.version,
            parts: current.parts.map((part) => (part.part_idx === result.part.part_idx ? result.part : part)),
          },
    );

  const toggle = async (part: WebsitePartData, enabled: boolean) => {
    const before = site;
    // shown at once, rolled back if the server refuses (social §8)
    setSite({
      ...site,
      parts: site.parts.map((p) => (p.part_idx === part.part_idx ? { ...p, enabled } : p)),
    });
    try {
      applied(await setSection(site.xpointid, part.part_idx, enabled, site.version));
    } catch (error) {
      setSite(before);
      errors.show(errorText(error), WEBSITE_SECTION_ERROR_SHOWN_MS);
    }
  };

  return (
    <div className="website" data-website-version={site.version}>
      {site.editable && (
        <div className="website__tools">
          <p className="website__note">
            You control this place: switch its sections on or off and edit them here. Visitors see only the
            sections that are on.
          </p>
          <a className="xp-button" href={websiteZipPath(site.xpointid)} download>
            Download the site
          </a>
        </div>
      )}
      <ErrorArea message={errors.message} />
      {shown.map((part) => (
        <SitePartBlock
          key={part.part_idx}
          site={site}
          part={part}
          editing={editing === part.part_idx}
          onEdit={() => setEditing(part.part_idx)}
          onToggle={(enabled) => void toggle(part, enabled)}
          editor={
            editing === part.part_idx ? (
              <Suspense fallback={<p role="status">Loading the editor…</p>}>
                <PartEditor
                  xpointid={site.xpointid}
                  part={part}
                  version={site.version}
                  onSaved={applied}
                  onClose={() => setEditing(null)}
                  onError={errors.show}
                />
              </Suspense>
            ) : null
          }
        />
      ))}
    </div>
  );
}

function SitePartBlock({
  site,
  part,
  editing,
  onEdit,
  onToggle,
  editor,
}: {
  site: SiteView;
  part: WebsitePartData;
  editing: boolean;
  onEdit(): void;
  onToggle(enabled: boolean): void;
  editor: React.ReactNode;
}) {
  const headingId = useId();
  const title = partTitle(part);
  return (
    <section
      className={part.enabled ? 'website-part' : 'website-part website-part--off'}
      aria-labelledby={headingId}
      data-part={part.part_idx}
    >
      <div className="website-part__head">
        <h3 id={headingId} className="website-part__title">
          {title}
        </h3>
        {site.editable && (
          <div className="website-part__controls">
            <label className="website-part__switch">
              <input
                type="checkbox"
                checked={part.enabled}
                onChange={(event) => onToggle(event.target.checked)}
              />{' '}
              Shown on the site<span className="visually-hidden">: {title}</span>
            </label>
            {!editing && (
              <button type="button" className="xp-button" onClick={onEdit}>
                Edit<span className="visually-hidden"> {title}</span>
              </button>
            )}
          </div>
        )}
      </div>
      {editing ? editor : <SitePartBody part={part} auto={site.auto} />}
      {site.editable && !editing && !partHasContent(part, site.auto) && (
        <p className="empty-note">Nothing here yet: edit this section to write it.</p>
      )}
    </section>
  );
}
