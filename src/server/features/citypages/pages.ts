import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { PAGE_DATA_ELEMENT_ID } from '../../../shared/details/page';
import { escapeHtml, scriptJson } from '../../../shared/details/seo';
import type { CityPagesData, CityPagesRenderer } from '../../../shared/citypages/page';
import { cityPageHead, eventPageHead, searchPageHead } from '../../../shared/citypages/seo';
import { AppError } from '../../../shared/errors';
import type { Store } from '../../store/store';
import { TemplateFile } from '../../http/template-file';
import { CityPageService } from './service';

/** Where citypage.html (the Vite build's template of these pages) takes what the server writes. */
const MARKERS = { head: '<!--xp-head-->', root: '<!--xp-root-->', data: '<!--xp-data-->' } as const;

/** The renderer's file: built beside the full-screen page's (`vite build --ssr`, vite.config.ts). */
export function cityPagesRendererFile(pageRenderer: string): string {
  return path.join(path.dirname(pageRenderer), 'citypages.js');
}

/**
 * Loads the server's renderer of the city and event pages, or null when it is not built: /e/{id} is
 * then the app (its side panel) and /cads/{city} answers 503 with the catalogue's error.
 */
export async function loadCityPagesRenderer(
  file: string,
  log: FastifyBaseLogger,
): Promise<CityPagesRenderer | null> {
  if (!fs.existsSync(file)) {
    log.warn(
      { file },
      'the city page renderer is not built; /cads/ and /e/ pages are not rendered (run `npm run build`)',
    );
    return null;
  }
  const module = (await import(pathToFileURL(file).href)) as { renderCityPages?: unknown };
  if (typeof module.renderCityPages !== 'function')
    throw new Error(`${file} does not export renderCityPages: rebuild it with \`npm run build\``);
  return module.renderCityPages as CityPagesRenderer;
}

/** Replaces one marker; a function replacement, so `$&` in the text is never a pattern. */
function fill(template: string, marker: string, text: string): string {
  return template.replace(marker, () => text);
}

/**
 * The city deals page and the event page rendered on the server (issue 19), the way the full-screen
 * point page is (details/fullscreen.ts): the React components the browser hydrates, with title,
 * description, canonical link, Open Graph and JSON-LD, and the page's data for the browser.
 */
export class CityPages {
  readonly service: CityPageService;
  private readonly template: TemplateFile;

  /** `publicUrl` (PUBLIC_URL) starts canonical links and JSON-LD URLs, never the request's Host. */
  constructor(
    store: Store,
    private readonly renderer: CityPagesRenderer | null,
    templateFile: string,
    private readonly publicUrl: string,
  ) {
    this.service = new CityPageService(store);
    this.template = new TemplateFile(templateFile);
  }

  /** Whether pages are rendered here (the renderer and its template are built). */
  get available(): boolean {
    return this.renderer !== null && this.template.read() !== null;
  }

  /** The whole document for a page's data. */
  async render(data: CityPagesData): Promise<string> {
    if (this.renderer === null) throw new AppError('pageRendererNotBuilt');
    // a rebuild while the server runs changes the asset names: TemplateFile notices
    const template = this.template.read();
    if (template === null) throw new AppError('pageRendererNotBuilt');
    const markup = this.renderer(data);
    const head = this.head(data);
    const dataHtml = `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${scriptJson(data)}</script>`;
    return fill(fill(fill(template, MARKERS.head, head), MARKERS.root, markup), MARKERS.data, dataHtml);
  }

  private head(data: CityPagesData): string {
    switch (data.kind) {
      case 'city':
      case 'event': {
        const head =
          data.kind === 'city' ? cityPageHead(data, this.publicUrl) : eventPageHead(data, this.publicUrl);
        return `<title>${escapeHtml(head.title)}</title><meta name="description" content="${escapeHtml(head.description)}">${head.tags}`;
      }
      case 'city-search':
        return data.reason === 'search'
          ? searchPageHead(`Cities matching “${data.query}”`, 'Find a city and its deals, posts and events.')
          : searchPageHead('City not found', 'There is no such city here: search for one.');
      case 'event-missing':
        return searchPageHead('Event not found', 'There is no such event here (any more).');
    }
  }

  /** /cads/{city}'s data, for a request (the clock is read once per page). */
  cityData(_request: FastifyRequest, city: string) {
    return this.service.cityPage(city, Date.now());
  }

  eventData(request: FastifyRequest, id: string) {
    return this.service.eventPage(request.viewer, id, Date.now());
  }
}
