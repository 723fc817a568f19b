import { renderToString } from 'react-dom/server';
import type { FullScreenRenderer } from '../../shared/details/page';
import { loadSiteEditor } from '../features/website/siteEditorLoader';
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
