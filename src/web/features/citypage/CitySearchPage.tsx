import {
  CITY_QUERY_MAX_CHARS,
  type CitySearchPageData,
  type EventMissingPageData,
} from '../../../shared/citypages/page';
import { PageFrame } from './PageFrame';

const HEADINGS: Record<CitySearchPageData['reason'], string> = {
  unknown: 'We do not know this city',
  malformed: 'That is not a city address',
  search: 'Cities',
  invalid: 'Search for a city',
};

/**
 * The city search (GET /cads?q=): the 404 of an unknown or malformed /cads/{city}, and the page its
 * form answers with. A plain form, so it works before and without the page's scripts.
 */
export function CitySearchPage({ data }: { data: CitySearchPageData }) {
  const heading = data.reason === 'search' ? `Cities starting with “${data.query}”` : HEADINGS[data.reason];
  return (
    <PageFrame>
      <h1 className="citypage-head__title">{heading}</h1>
      {data.reason === 'unknown' && (
        <p className="citypage-head__where">No city here goes by that address. Search for it by name:</p>
      )}
      {data.reason === 'malformed' && (
        <p className="citypage-head__where">
          City addresses hold letters, digits and hyphens. Search by name:
        </p>
      )}
      <form className="citypage-search" action="/cads" method="get" role="search">
        <label className="citypage-search__label" htmlFor="citypage-q">
          City
        </label>
        <input
          id="citypage-q"
          className="citypage-search__input"
          type="search"
          name="q"
          defaultValue={data.query}
          required
          maxLength={CITY_QUERY_MAX_CHARS}
          autoComplete="off"
          aria-invalid={data.message ? 'true' : undefined}
          aria-describedby={data.message ? 'citypage-q-error' : undefined}
        />
        <button className="xp-button citypage-search__button" type="submit">
          Search
        </button>
        {data.message && (
          <p id="citypage-q-error" className="citypage-search__error" role="alert">
            {data.message}
          </p>
        )}
      </form>
      {data.cities.length > 0 ? (
        <ul className="citypage-cities" aria-label="Matching cities">
          {data.cities.map((city) => (
            <li key={city.city_forurl}>
              <a href={city.url}>{city.city}</a>{' '}
              <span className="citypage-facts__muted">
                {[city.state, city.country].filter(Boolean).join(', ')}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        data.reason === 'search' && <p className="citypage-empty">No results found</p>
      )}
    </PageFrame>
  );
}

/** The 404 of /e/{id}: the event is not (or no longer) here. */
export function EventMissingPage({ data: _data }: { data: EventMissingPageData }) {
  return (
    <PageFrame link={{ href: '/', text: 'Open the map' }}>
      <h1 className="citypage-head__title">Event not found</h1>
      <p className="citypage-head__where">
        There is no event at this address: it may have been removed. Find what is on from the map, or search
        for a city:
      </p>
      <form className="citypage-search" action="/cads" method="get" role="search">
        <label className="citypage-search__label" htmlFor="citypage-q">
          City
        </label>
        <input
          id="citypage-q"
          className="citypage-search__input"
          type="search"
          name="q"
          required
          maxLength={CITY_QUERY_MAX_CHARS}
        />
        <button className="xp-button citypage-search__button" type="submit">
          Search
        </button>
      </form>
    </PageFrame>
  );
}
