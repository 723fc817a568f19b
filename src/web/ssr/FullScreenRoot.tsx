import { StrictMode } from 'react';
import type { FullScreenPageData } from '../../shared/details/page';
import { FullScreenPoint } from '../features/details/FullScreenPoint';
import type { PointDetails } from '../features/details/schemas';
import { RenderSideContext } from './renderSide';

/**
 * The whole tree of the server-rendered full-screen page: rendered to HTML by the server
 * (render.tsx) and hydrated from the same data by the browser (hydrate.tsx), so both write the same
 * markup. Times are in the point's zone and the reader's language on both sides. `side` says which of
 * the two renders it: what is static for this reader is written by the server and left as it is by
 * the browser (renderSide.ts).
 */
export function FullScreenRoot({ data, side }: { data: FullScreenPageData; side: 'server' | 'client' }) {
  // the server's own detail JSON, which the panel's lenient schema always accepts as it is
  const point: PointDetails = data.point;
  return (
    <StrictMode>
      <RenderSideContext.Provider value={side}>
        <FullScreenPoint
          point={point}
          category={data.category}
          host={data.host}
          locale={data.locale}
          website={data.website}
          hoursText={data.hoursText}
        />
      </RenderSideContext.Provider>
    </StrictMode>
  );
}
