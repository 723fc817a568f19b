import { renderToString } from 'react-dom/server';
import { parseAddress } from '../../shared/address';
import type {
  FirstPaint,
  FullScreenRenderer,
  PointFirstPaintRenderer,
  SearchFirstPaintData,
} from '../../shared/details/page';
import { loadSiteEditor } from '../features/website/siteEditorLoader';
import { viewStateFor } from '../shell/viewMode';
import { LandingFirstPaint, MapFirstPaint, PointFirstPaint, SearchFirstPaint } from './FirstPaint';
import { FullScreenRoot } from './FullScreenRoot';

// the site editor, a chunk of its own in the browser, is ready before the first page is rendered, so
// a controller's page is written with it (and hydrated with it: hydrate.tsx loads it first)
await loadSiteEditor();

/**
 * The server's entry (built by `vite build --ssr`, loaded by src/server/features/details/fullscreen.ts):
 * the full-screen point page's markup, to be hydrated by the browser.
 */
export const renderFullScreenPoint: FullScreenRenderer = (data) =>
  renderToString(<FullScreenRoot data={data} side="server" />);

/** A point's level in the app, painted first by the server (issue 23; ssr/FirstPaint.tsx). */
export const renderPointFirstPaint: PointFirstPaintRenderer = (data, path, search) => ({
  markup: renderToString(<PointFirstPaint data={data} />),
  bodyClass: viewStateFor(parseAddress(path, search).route).classes.join(' '),
});

/** The landing card ('' and /home), painted first by the server (issue 23). */
export const renderLandingFirstPaint = (path: string, search: string): FirstPaint => ({
  markup: renderToString(<LandingFirstPaint />),
  bodyClass: viewStateFor(parseAddress(path, search).route).classes.join(' '),
});

/** The map with no panel (/maps), painted first by the server (issue 23): the map starts at once (map/boot.ts). */
export const renderMapFirstPaint = (path: string, search: string): FirstPaint => ({
  markup: renderToString(<MapFirstPaint />),
  bodyClass: viewStateFor(parseAddress(path, search).route).classes.join(' '),
});

/** A search's first page, painted first by the server (issue 23), in the visitor's result mode. */
export const renderSearchFirstPaint = (
  data: SearchFirstPaintData,
  path: string,
  search: string,
): FirstPaint => {
  const { route } = parseAddress(path, search);
  return {
    markup: renderToString(
      <SearchFirstPaint data={data} loc={'data' in route ? route.data.loc : undefined} />,
    ),
    bodyClass: viewStateFor(route).classes.join(' '),
  };
};
