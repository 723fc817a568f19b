import { zipSync, strToU8, type Zippable } from 'fflate';
import {
  WEBSITE_DEFAULT_TITLES,
  hasOwnText,
  orderedPictures,
  partLines,
  type WebsitePartData,
  type WebsiteView,
} from '../../../shared/website';
import { escapeHtml } from '../../../shared/details/seo';

/**
 * The site as a static folder (issue 20, "download the site"): index.html, site.css and the pictures
 * under images/, zipped. Everything is addressed relatively and nothing is loaded from anywhere else,
 * so the folder opens from disk with no request to any server and can be hosted anywhere as it is.
 */

/** The folder's stylesheet: small, no web fonts, readable from a phone to a desktop. */
export const SITE_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;background:#f6f7f9}
header{background:#14365d;color:#fff;padding:2.5rem 0}
header h1{margin:0 auto;max-width:60rem;padding:0 1.25rem;font-size:2rem}
main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 3rem}
section{background:#fff;border-radius:12px;padding:1.25rem 1.5rem;margin:1.25rem 0;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h2{margin:0 0 .5rem;font-size:1.35rem}
p{margin:.4rem 0;white-space:pre-line}
ul{padding-left:1.2rem}
.pics{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.75rem;margin-top:1rem}
.pics img{width:100%;height:auto;border-radius:8px;display:block}
.stars{color:#8a5a00}
footer{text-align:center;color:#5b6472;font-size:.85rem;padding:2rem 1rem}
`;

/** A picture of the folder: its file name under images/, and its bytes. */
export interface SiteFile {
  name: string;
  data: Uint8Array;
}

function autoBody(part: WebsitePartData, view: WebsiteView, when: (ms: number) => string): string {
  const { auto } = view;
  switch (part.role) {
    case 'welcome':
      return auto.description ? `<p>${escapeHtml(auto.description)}</p>` : '';
    case 'hours':
      return auto.hours ? `<p>${escapeHtml(auto.hours)}</p>` : '';
    case 'events':
      return auto.events.length
        ? `<ul>${auto.events.map((e) => `<li>${escapeHtml(when(e.start_date))}: ${escapeHtml(e.title)}</li>`).join('')}</ul>`
        : '';
    case 'posts':
      return auto.posts.length
        ? `<ul>${auto.posts.map((p) => `<li><strong>${escapeHtml(p.title)}</strong> ${escapeHtml(p.description)}</li>`).join('')}</ul>`
        : '';
    case 'reviews':
      return auto.reviews.length
        ? `<ul>${auto.reviews
            .map(
              (r) =>
                `<li><span class="stars" aria-label="${r.stars} of 5 stars">${'★'.repeat(r.stars)}</span> “${escapeHtml(r.text)}” — ${escapeHtml(r.author)}</li>`,
            )
            .join('')}</ul>`
        : '';
    default:
      return '';
  }
}

/**
 * index.html of the folder. `pictureFile` names each picture's file in images/ (null: left out, the
 * store no longer has it).
 */
export function staticSiteHtml(
  view: WebsiteView,
  pictureFile: (partIdx: number, picIdx: number) => string | null,
  when: (ms: number) => string,
): string {
  const sections: string[] = [];
  for (const part of view.parts) {
    if (!part.enabled) continue;
    const own = hasOwnText(part);
    const title = part.fields.title?.trim() || WEBSITE_DEFAULT_TITLES[part.role];
    let body = '';
    if (own) {
      if (part.fields.description) body += `<p>${escapeHtml(part.fields.description)}</p>`;
      const lines = partLines(part);
      if (lines.length) body += `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
    } else body += autoBody(part, view, when);
    const pics = orderedPictures(part.pictures)
      .map((pic) => {
        const file = pictureFile(part.part_idx, pic.pic_idx);
        if (!file) return '';
        const size = pic.width && pic.height ? ` width="${pic.width}" height="${pic.height}"` : '';
        return `<img src="images/${file}" alt="${escapeHtml(title)}, picture ${pic.pic_idx}"${size}>`;
      })
      .join('');
    if (pics) body += `<div class="pics">${pics}</div>`;
    if (!body) continue;
    sections.push(`<section><h2>${escapeHtml(title)}</h2>${body}</section>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(view.title)}</title>
<link rel="stylesheet" href="site.css">
</head>
<body>
<header><h1>${escapeHtml(view.title)}</h1></header>
<main>
${sections.join('\n')}
</main>
<footer>Made with XPoint</footer>
</body>
</html>
`;
}

/** The zip of the folder: `<slug>/index.html`, `<slug>/site.css`, `<slug>/images/*`. */
export function siteZip(folder: string, html: string, files: readonly SiteFile[]): Uint8Array {
  const entries: Zippable = {
    [`${folder}/index.html`]: strToU8(html),
    [`${folder}/site.css`]: strToU8(SITE_CSS),
  };
  // pictures are compressed already: stored as they are (level 0) costs no CPU for no loss
  for (const file of files) entries[`${folder}/images/${file.name}`] = [file.data, { level: 0 }];
  return zipSync(entries, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') });
}
