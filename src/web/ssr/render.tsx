import { renderToString } from 'react-dom/server';
import { parseAddress } from '../../shared/address';
import type { ReactNode } from 'react';
import type {
  FirstPaint,
  FullScreenRenderer,
  MapCredit,
  PointFirstPaintRenderer,
  SearchFirstPaintData,
} from '../../shared/details/page';
import { loadSiteEditor } from '../features/website/siteEditorLoader';
import { viewStateFor } from '../shell/viewMode';
import {
  LandingFirstPaint,
  MapCreditContext,
  MapFirstPaint,
  PointFirstPaint,
  SearchFirstPaint,
} from './FirstPaint';
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

/** A first paint's markup, with the map's credit in the map's corner (FirstPaint.tsx). */
function paint(screen: ReactNode, credit: MapCredit): string {
  return renderToString(<MapCreditContext value={credit}>{screen}</MapCreditContext>);
}

/** A point's level in the app, painted first by the server (issue 23; ssr/FirstPaint.tsx). */
export const renderPointFirstPaint: PointFirstPaintRenderer = (data, path, search, credit) => ({
  markup: paint(<PointFirstPaint data={data} />, credit),
  bodyClass: viewStateFor(parseAddress(path, search).route).classes.join(' '),
});

/** The landing card ('' and /home), painted first by the server (issue 23). */
export const renderLandingFirstPaint = (path: string, search: string, credit: MapCredit): FirstPaint => ({
  markup: paint(<LandingFirstPaint />, credit),
  bodyClass: viewStateFor(parseAddress(path, search).route).classes.join(' '),
});

/** The map with no panel (/maps), painted first by the server (issue 23): the map starts at once (map/boot.ts). */
export const renderMapFirstPaint = (path: string, search: string, credit: MapCredit): FirstPaint => ({
  markup: paint(<MapFirstPaint />, credit),
  bodyClass: viewStateFor(parseAddress(path, search).route).classes.join(' '),
});

/** A search's first page, painted first by the server (issue 23), in the visitor's result mode. */
export const renderSearchFirstPaint = (
  data: SearchFirstPaintData,
  path: string,
  search: string,
  credit: MapCredit,
): FirstPaint => {
  const { route } = parseAddress(path, search);
  return {
    markup: paint(
      <SearchFirstPaint data={data} loc={'data' in route ? route.data.loc : undefined} />,
      credit,
    ),
    bodyClass: viewStateFor(route).classes.join(' '),
  };
};
