import type { FirstPaintRenderers, FullScreenRenderer } from '../../src/shared/details/page';

// a path the type checker does not follow: the web app's TSX is checked by tsconfig.web.json
const RENDERER_MODULE = '../../src/web/ssr/render.tsx';

/**
 * The server's renderers from the web app's own source (src/web/ssr/render.tsx), as `vite build
 * --ssr` bundles them: the full-screen point page and the app's first paints (issue 23).
 */
export async function sourceRenderers(): Promise<{
  fullScreen: FullScreenRenderer;
  firstPaint: FirstPaintRenderers;
}> {
  const module = (await import(/* @vite-ignore */ RENDERER_MODULE)) as {
    renderFullScreenPoint: FullScreenRenderer;
    renderPointFirstPaint: FirstPaintRenderers['point'];
    renderLandingFirstPaint: FirstPaintRenderers['landing'];
    renderMapFirstPaint: FirstPaintRenderers['map'];
    renderSearchFirstPaint: FirstPaintRenderers['search'];
  };
  return {
    fullScreen: module.renderFullScreenPoint,
    firstPaint: {
      point: module.renderPointFirstPaint,
      landing: module.renderLandingFirstPaint,
      map: module.renderMapFirstPaint,
      search: module.renderSearchFirstPaint,
    },
  };
}
