import { renderToString } from 'react-dom/server';
import type { CityPagesRenderer } from '../../shared/citypages/page';
import { CityPagesRoot } from '../features/citypage/CityPagesRoot';

/**
 * The server's entry of the city and event pages (built by `vite build --ssr` beside render.tsx,
 * loaded by src/server/features/citypages/pages.ts): their markup, to be hydrated by the browser.
 */
export const renderCityPages: CityPagesRenderer = (data) => renderToString(<CityPagesRoot data={data} />);
