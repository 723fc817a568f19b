import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildAddress, type Route } from '../../../shared/address';
import { initialLocation } from '../../../shared/map/startView';
import { pointDetailsPath } from '../../../shared/api/details';
import {
  pagedSearchRequestSchema,
  type PagedSearchResponse,
  type ParsedPagedSearchRequest,
} from '../../../shared/api/search';
import {
  isEmptyQuery,
  pagedSearchBody,
  readResultMode,
  searchQueryOf,
  type SearchQuery,
} from '../../../shared/search/query';
import { categoryName } from '../../../shared/domain/categories';
import {
  FIRST_ANSWERS_ELEMENT_ID,
  FIRST_PAINT_LANDING,
  FIRST_PAINT_MAP,
  FIRST_PAINT_POINT,
  FIRST_PAINT_SEARCH,
  PAGE_DATA_ELEMENT_ID,
  searchAnswerPath,
  pageLocale,
  type FirstAnswer,
  type FullScreenPageData,
  type FirstPaint,
  type FirstPaintRenderers,
  type MapCredit,
  type FullScreenRenderer,
} from '../../../shared/details/page';
import { openingHoursText } from '../../../shared/details/hours-text';
import { escapeHtml, pointPageHead, scriptJson } from '../../../shared/details/seo';
import { AppError } from '../../../shared/errors';
import { withFieldErrors } from '../../../shared/api/contract';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { TemplateFile } from '../../http/template-file';
import { DetailService } from './service';
import { siteView } from '../website/service';

/** Where fullscreen.html (the Vite build's template of the page) takes what the server writes. */
const MARKERS = { head: '<!--xp-head-->', root: '<!--xp-root-->', data: '<!--xp-data-->' } as const;

/**
 * Loads the server's renderer of the full-screen page (`vite build --ssr ssr/render.tsx`), or null
 * when it is not built: the page is then left to the browser, which renders it after loading.
 */
export async function loadPageRenderer(
  file: string,
  log: FastifyBaseLogger,
): Promise<FullScreenRenderer | null> {
  if (!fs.existsSync(file)) {
    log.warn(
      { file },
      'the page renderer is not built; full-screen pages render in the browser (run `npm run build`)',
    );
    return null;
  }
  const module = (await import(pathToFileURL(file).href)) as { renderFullScreenPoint?: unknown };
  if (typeof module.renderFullScreenPoint !== 'function')
    throw new Error(`${file} does not export renderFullScreenPoint: rebuild it with \`npm run build\``);
  return module.renderFullScreenPoint as FullScreenRenderer;
}

/**
 * Loads the renderers of the app's first paints (issue 23) from the same built module, or null when
 * it is not built or does not have them: the app then paints its screens itself, as before.
 */
export async function loadFirstPaintRenderers(file: string): Promise<FirstPaintRenderers | null> {
  if (!fs.existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as {
    renderPointFirstPaint?: unknown;
    renderLandingFirstPaint?: unknown;
    renderMapFirstPaint?: unknown;
    renderSearchFirstPaint?: unknown;
  };
  const renderers = {
    point: module.renderPointFirstPaint,
    landing: module.renderLandingFirstPaint,
    map: module.renderMapFirstPaint,
    search: module.renderSearchFirstPaint,
  };
  if (Object.values(renderers).some((render) => typeof render !== 'function')) return null;
  return renderers as FirstPaintRenderers;
}

/** The screens `framePage` paints: the mark on #root, and the canonical address. */
const FRAME_SCREENS = {
  landing: { painted: FIRST_PAINT_LANDING, canonicalPath: '/' },
  map: { painted: FIRST_PAINT_MAP, canonicalPath: '/maps' },
} as const;

/** Where the app's index.html takes a first paint (the Vite build keeps these as written). */
const APP_MARKERS = {
  title: /<title>[^<]*<\/title>/,
  description: /<meta\s+name="description"[^>]*>/,
  body: '<body>',
  root: '<div id="root"></div>',
} as const;

/** Whether the request's Accept header puts JSON before HTML. */
function prefersJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const json = accept.indexOf('application/json');
  const html = accept.indexOf('text/html');
  return json >= 0 && (html < 0 || json < html);
}

/** Replaces one marker; a function replacement, so `$&` in the text is never a pattern. */
function fill(template: string, marker: string, text: string): string {
  return template.replace(marker, () => text);
}

/**
 * The full-screen point page rendered on the server (map-and-search §2, §4, §7; issue 7): the same
 * React components the browser uses, with a real title, description, canonical address, Open Graph
 * tags and schema.org JSON-LD, then hydrated by the browser from the data the page carries.
 */
export class FullScreenPages {
  private readonly details: DetailService;
  private readonly template: TemplateFile;
  /** where the built files are (the template's folder). */
  private readonly webDir: string;
  /** the built stylesheets a first paint inlines, by their address (hashed names: they never change). */
  private readonly styles = new Map<string, string | null>();

  /** The text of a built stylesheet at `/assets/NAME.css`, or null when it is not one. */
  private readonly styleOf = (href: string): string | null => {
    if (!/^\/assets\/[\w.-]+\.css$/.test(href)) return null;
    let text = this.styles.get(href);
    if (text === undefined) {
      try {
        text = fs.readFileSync(path.join(this.webDir, href), 'utf8');
      } catch {
        text = null;
      }
      this.styles.set(href, text);
    }
    return text;
  };
  /** the site's host as people reach it (PUBLIC_URL), shown on the page. */
  private readonly host: string;

  /**
   * `publicUrl` (config PUBLIC_URL) starts the canonical link and og:url: never the request's Host or
   * X-Forwarded-Host, which a client chooses (a forged one would be written into a shared page).
   */
  constructor(
    private readonly store: Store,
    private readonly renderer: FullScreenRenderer | null,
    templateFile: string,
    private readonly publicUrl: string,
    /** the app's first paints (issue 23); null: the app paints its screens itself. */
    private readonly firstPaint: FirstPaintRenderers | null = null,
    /** the map's credit, painted before the map comes (`basemapCredit` of the BASEMAP setting). */
    private readonly mapCredit: MapCredit = null,
  ) {
    this.details = new DetailService(store);
    this.host = new URL(publicUrl).host;
    this.template = new TemplateFile(templateFile);
    this.webDir = path.dirname(templateFile);
  }

  /** Whether pages are rendered here (the renderer and its template are built). */
  get available(): boolean {
    return this.renderer !== null && this.template.read() !== null;
  }

  /** What the page is rendered from, for this viewer and reader. */
  async data(request: FastifyRequest, id: string): Promise<FullScreenPageData> {
    const now = Date.now();
    const point = await this.details.pointDetails(request.viewer, id, now, request.log);
    const category = categoryName(point.supertype, point.type);
    return {
      point,
      category,
      host: this.host,
      locale: pageLocale(request.headers['accept-language']),
      // the hours in words, here: the browser hydrates them without the opening_hours library or its clock
      hoursText: point.opening_hours ? openingHoursText(point.opening_hours, now) : null,
      // the point's own site (issue 20), rendered in the page so it is indexed with it
      website: point.permissions.canHaveSites ? await siteView(this.store, point) : null,
    };
  }

  private async render(request: FastifyRequest, id: string) {
    if (this.renderer === null) throw new AppError('pageRendererNotBuilt');
    const data = await this.data(request, id);
    const head = pointPageHead(data.point, this.publicUrl, data.category);
    return { data, markup: this.renderer(data), head };
  }

  /**
   * The whole page for /f/{id} and /{id}, or null when this server does not render pages (the caller
   * then sends the app, which renders it in the browser). An unknown point throws its 404.
   */
  async page(request: FastifyRequest, id: string): Promise<string | null> {
    const template = this.renderer === null ? null : this.template.read();
    if (template === null) return null;
    const { data, markup, head } = await this.render(request, id);
    const headHtml =
      `<title>${escapeHtml(head.title)}</title>` +
      `<meta name="description" content="${escapeHtml(head.description)}">${head.tags}`;
    const dataHtml = `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${scriptJson(data)}</script>`;
    return fill(fill(fill(template, MARKERS.head, headHtml), MARKERS.root, markup), MARKERS.data, dataHtml);
  }

  /**
   * The app's page (`indexHtml`) for a point's level (/b/{id} and its kin) with the level painted in
   * it, its title, description and canonical link, and the answer it was painted from, so the app's
   * first render shows the same level without asking again (issue 23). For visitors only: a signed-in
   * viewer's controls are the app's to draw. Null when it is not painted here (no renderer, a
   * signed-in viewer, a point that cannot be shown: the app says why, as it always has).
   */
  async appPage(
    request: FastifyRequest,
    id: string,
    address: string,
    indexHtml: string,
  ): Promise<string | null> {
    if (this.firstPaint === null || request.viewer) return null;
    const now = Date.now();
    let point;
    try {
      point = await this.details.pointDetails(null, id, now, request.log);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return null;
      throw error;
    }
    const category = categoryName(point.supertype, point.type);
    const [path = '/', search = ''] = address.split('?', 2);
    const painted = this.firstPaint.point(
      {
        point,
        category,
        host: this.host,
        hoursText: point.opening_hours ? openingHoursText(point.opening_hours, now) : null,
      },
      path,
      search,
      this.mapCredit,
    );
    const head = pointPageHead(point, this.publicUrl, category);
    return paintInto(indexHtml, FIRST_PAINT_POINT, painted, this.styleOf, {
      title: head.title,
      description: head.description,
      tags: head.tags,
      answers: [{ path: pointDetailsPath(id), viewer: '', data: point }],
    });
  }

  /**
   * The app's page (`indexHtml`) for a screen that needs no data of its own to paint, painted in it,
   * for a visitor (issue 23): the landing card ('' and /home), or the map with no panel (/maps), whose
   * painted place the map's early start (src/web/map/boot.ts) fills at once. Null when it is not
   * painted here (no renderer, or a signed-in viewer, whose card and top bar are the app's to draw).
   */
  framePage(
    request: FastifyRequest,
    screen: 'landing' | 'map',
    address: string,
    indexHtml: string,
  ): string | null {
    if (this.firstPaint === null || request.viewer) return null;
    const [path = '/', search = ''] = address.split('?', 2);
    const { painted, canonicalPath } = FRAME_SCREENS[screen];
    const canonical = `<link rel="canonical" href="${escapeHtml(new URL(canonicalPath, this.publicUrl).href)}">`;
    return paintInto(
      indexHtml,
      painted,
      this.firstPaint[screen](path, search, this.mapCredit),
      this.styleOf,
      {
        tags: canonical,
        answers: [],
      },
    );
  }

  /** The paged search (search/routes.ts), once its index is built: search pages are painted with it. */
  private search: Promise<{ page(request: ParsedPagedSearchRequest): PagedSearchResponse }> | null = null;

  searchWith(search: Promise<{ page(request: ParsedPagedSearchRequest): PagedSearchResponse }>): void {
    this.search = search;
  }

  /**
   * The app's page (`indexHtml`) for a search's page (/search/{keywords}, /maps/{keywords} with its
   * `data=`), painted with the results the app's first call would get, for a visitor (issue 23): the
   * same body (`pagedSearchBody`), so without bounds the same centre to rank around (where the app's map
   * opens: the address's `loc`, else the visitor's last map position, else New York), in the visitor's
   * result mode. Null when it is not painted here (no
   * renderer or search, a signed-in viewer, nothing to look for, a query the search refuses: the app
   * says why, as it always has).
   */
  async searchPage(
    request: FastifyRequest,
    route: Extract<Route, { screen: 'map-search' | 'landing-search' }>,
    address: string,
    indexHtml: string,
  ): Promise<string | null> {
    if (this.firstPaint === null || this.search === null || request.viewer) return null;
    const query = searchQueryOf(route.keywords, route.supertype, route.data);
    if (isEmptyQuery(query)) return null;
    const cookies = request.headers.cookie ?? '';
    const [path = '/', search = ''] = address.split('?', 2);
    // where the app's map opens for this address, less its hash, which never reaches the server
    const start = initialLocation({ hash: '', pathname: path, cookies });
    const near = { lat: start.lat, lon: start.lng };
    const parsed = pagedSearchRequestSchema.safeParse(pagedSearchBody(query, near));
    if (!parsed.success) return null;
    const page = (await this.search).page(parsed.data);
    const painted = this.firstPaint.search(
      { query, page, mode: readResultMode(cookies) },
      path,
      search,
      this.mapCredit,
    );
    const title = `${query.keywords || (query.supertype ?? '')} — search · XPoint`;
    return paintInto(indexHtml, FIRST_PAINT_SEARCH, painted, this.styleOf, {
      title,
      description: `Places matching “${query.keywords}” on XPoint's map.`,
      tags: searchIndexing(route, query, this.publicUrl),
      answers: [{ path: searchAnswerPath(query, near), viewer: '', data: page }],
    });
  }

  /** GET /XPoint/AsideDetails/{id}?fullscreen=true (§7): the page's markup and its JSON-LD, no document. */
  async fragment(request: FastifyRequest, id: string): Promise<string> {
    const { markup, head } = await this.render(request, id);
    return `<div class="fullscreen-aside" data-xpoint-id="${escapeHtml(id)}">${markup}</div>${head.jsonLd}`;
  }
}

/**
 * Whether a painted search page is one for search engines (issue 23): the first page of a search from
 * the landing page, `/search/{keywords}` with nothing but the words (and a supertype), as Yelp's "coffee
 * in …" pages are, with that address as its canonical one; every other page of results (the map's
 * search with its bounds, a later page, a page size) is followed but not indexed.
 */
function searchIndexing(
  route: Extract<Route, { screen: 'map-search' | 'landing-search' }>,
  query: SearchQuery,
  publicUrl: string,
): string {
  const plain =
    route.screen === 'landing-search' &&
    query.keywords !== '' &&
    query.southwest === undefined &&
    query.pageNumber === 1 &&
    query.pageSize === 12;
  if (!plain) return '<meta name="robots" content="noindex, follow">';
  const address = buildAddress({
    screen: 'landing-search',
    keywords: query.keywords,
    ...(route.supertype === undefined ? {} : { supertype: route.supertype }),
    data: {},
  });
  return `<link rel="canonical" href="${escapeHtml(new URL(address, publicUrl).href)}">`;
}

/**
 * Writes a first paint into the app's index.html: the markup in #root (marked with its screen), the
 * body's classes, the head's title, description and extra tags where given, and the answers the app
 * seeds its cache with. Null when the page lacks a place for them (a template this code does not know).
 *
 * The page is painted as soon as its HTML is read: its stylesheets come inline (`styleOf`, 8 KB gzip),
 * each link kept but disabled, so the browser neither waits for it nor fetches it (eight requests fewer
 * on the six connections the map's tiles need, `npm run bench:map`), and the app's loader still finds
 * it and never adds it again; and the module preload hints go, so the app's scripts do not take the network
 * from the page's pictures (Lighthouse, phone profile: seven stylesheets and 21 preloads held /b/{id}'s
 * first paint at 2.6 s).
 */
function paintInto(
  indexHtml: string,
  screen: string,
  { markup, bodyClass }: FirstPaint,
  styleOf: (href: string) => string | null,
  head: { title?: string; description?: string; tags: string; answers: FirstAnswer[] },
): string | null {
  if (!APP_MARKERS.title.test(indexHtml) || !indexHtml.includes(APP_MARKERS.root)) return null;
  const title = APP_MARKERS.title.exec(indexHtml)?.[0] ?? '';
  let html = indexHtml;
  if (head.description !== undefined) html = html.replace(APP_MARKERS.description, '');
  const headHtml =
    (head.title === undefined ? title : `<title>${escapeHtml(head.title)}</title>`) +
    (head.description === undefined
      ? ''
      : `<meta name="description" content="${escapeHtml(head.description)}">`) +
    head.tags;
  return html
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(
      /<link rel="stylesheet"([^>]*) href="([^"]+)"([^>]*)>/g,
      (link: string, before: string, href: string, after: string) => {
        const text = styleOf(href);
        // a stylesheet's text never holds `</style`: it would end the element early
        if (text === null || /<\/style/i.test(text)) return link;
        return `<style>${text}</style><link rel="stylesheet"${before} href="${href}"${after} disabled>`;
      },
    )
    .replace(APP_MARKERS.title, () => headHtml)
    .replace(APP_MARKERS.body, () => `<body class="${escapeHtml(bodyClass)}">`)
    .replace(
      APP_MARKERS.root,
      () =>
        `<div id="root" data-first-paint="${screen}">${markup}</div>` +
        `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${scriptJson(head.answers)}</script>`,
    );
}

/** Sends a rendered page: it holds the viewer's own controls, so it is never shared or stored. */
export function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .status(200)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'private, no-store')
    .send(html);
}

/** `?fullscreen=true` is the only form of this call (the old site's aside); anything else is 6xxx. */
const asideQuery = withFieldErrors(
  z.looseObject({ fullscreen: z.literal('true').meta({ description: 'always true' }) }),
  {},
  'fullscreenOnly',
);

export const fullScreenRoutes: FastifyPluginAsync<{ pages: FullScreenPages }> = async (root, { pages }) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/XPoint/AsideDetails/:id',
    {
      config: { pageMeta: false },
      schema: {
        summary: "The full-screen page's aside, rendered; its data as JSON when the client asks for JSON",
        tags: ['details'],
        params: z.object({ id: z.string() }),
        querystring: asideQuery,
        response: {
          200: {
            description: 'an HTML fragment, or with Accept: application/json the data it is rendered from',
            content: {
              'text/html': { schema: z.string() },
              'application/json': { schema: z.unknown() },
            },
          },
          ...errorResponses('fullscreenOnly', 'pageRendererNotBuilt', 'invalidParam', 'pointNotFound'),
        },
      },
    },
    async (request, reply) => {
      // a client asking for JSON gets the data the page is rendered from (DESIGN: the same path answers JSON)
      if (prefersJson(request))
        return reply.header('Cache-Control', 'no-store').send(await pages.data(request, request.params.id));
      if (!pages.available) throw new AppError('pageRendererNotBuilt');
      const html = await pages.fragment(request, request.params.id);
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
    },
  );
};
