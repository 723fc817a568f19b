import { renderToString } from 'react-dom/server';
import type { FullScreenRenderer } from '../../shared/details/page';
import { FullScreenRoot } from './FullScreenRoot';

/**
 * The server's entry (built by `vite build --ssr`, loaded by src/server/features/details/fullscreen.ts):
 * the full-screen point page's markup, to be hydrated by the browser.
 */
export const renderFullScreenPoint: FullScreenRenderer = (data) =>
  renderToString(<FullScreenRoot data={data} />);
