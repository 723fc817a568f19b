import { StrictMode } from 'react';
import type { CityPagesData } from '../../../shared/citypages/page';
import { CityPage } from './CityPage';
import { CitySearchPage, EventMissingPage } from './CitySearchPage';
import { EventPage } from './EventPage';

/**
 * The whole tree of the city page, the event page and their 404s: rendered to HTML by the server
 * (ssr/citypages.tsx) and hydrated from the same data by the browser (ssr/citypages-client.tsx).
 * Times are written in the city's or the event's zone, so both sides write the same text.
 */
export function CityPagesRoot({ data }: { data: CityPagesData }) {
  return <StrictMode>{page(data)}</StrictMode>;
}

function page(data: CityPagesData) {
  switch (data.kind) {
    case 'city':
      return <CityPage data={data} />;
    case 'event':
      return <EventPage data={data} />;
    case 'city-search':
      return <CitySearchPage data={data} />;
    case 'event-missing':
      return <EventMissingPage data={data} />;
  }
}
