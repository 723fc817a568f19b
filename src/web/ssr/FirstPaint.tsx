import { createContext, use, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import type { MapLocation, SearchSupertype } from '../../shared/address';
import type { MapCredit, PointFirstPaintData, SearchFirstPaintData } from '../../shared/details/page';
import { ResultsPanel, resultAddress } from '../features/search/SearchScreen';
import { searchAddress } from '../features/search/searchView';
import { Description } from '../features/details/Description';
import { MediaCarousel } from '../features/details/MediaCarousel';
import { PointActions, PointSummary } from '../features/details/PointSummary';
import { ChatButton } from '../features/chat/ChatButton';
import { PointFacts } from '../features/details/PointSections';
import { SearchSubmit, SupertypeSelect } from '../features/search/SearchFormParts';
import { Brand } from '../shell/Brand';
import { Landing } from '../shell/Landing';
import { SidePanel } from '../shell/SidePanel';

/**
 * The first paint of an app screen, written by the server (issue 23): the shell's frame as the app
 * draws it for a visitor (the top bar with its search form, the map's place in the basemap's land
 * colour, the side panel) with the screen's real text in it. The browser's first render replaces it
 * with the same screen from the same answer (main.tsx seeds the answer and loads the level's script
 * first), so the text is read at once and stays where it is. Not hydrated: the shell reads the
 * browser's address, cookies and session as it renders, which the server does not render alike.
 */
function FirstPaintFrame({
  children,
  keywords = '',
  supertype = '',
}: {
  children?: ReactNode;
  /** what the search box holds on a search page, as the app's form shows it */
  keywords?: string;
  supertype?: SearchSupertype | '';
}) {
  return (
    <div className="app">
      <header className="topbar">
        <Brand />
        <div className="topbar__search">
          {/* a plain form until the app takes over: it searches by address (the app carries over what was typed) */}
          <form className="search-form" role="search" action="/search" method="get">
            <SupertypeSelect name="supertype" defaultValue={supertype} />
            <div className="search-form__box">
              <label className="visually-hidden" htmlFor="search-input">
                Search places
              </label>
              <input
                id="search-input"
                className="search-form__input"
                type="search"
                name="keywords"
                placeholder="Search places"
                defaultValue={keywords}
                maxLength={200}
                autoComplete="off"
              />
            </div>
            <SearchSubmit />
          </form>
        </div>
        <div className="user-menu">
          <a className="xp-button xp-button--primary user-menu__signin" href="/signin">
            Sign in
          </a>
        </div>
      </header>
      <main className="map-area">
        <div className="map-view" role="region" aria-label="Map" aria-busy="true" />
        <PaintedMapCredit />
        {children}
      </main>
    </div>
  );
}

/** The map's credit for the page being painted (render.tsx gives it: the server's BASEMAP setting). */
export const MapCreditContext = createContext<MapCredit>(null);

/**
 * The map's credit where MapLibre's attribution control will put it, in its elements and classes,
 * open as the control opens (map.css `.painted-credit` draws it as maplibre-gl.css does, which is not
 * on the page yet). Painted, the credit is the page's largest text when the control comes, so it is
 * not a later largest paint: on `/maps` that was 1.6× the bare MapLibre page's LCP (issue 23).
 */
function PaintedMapCredit() {
  const credit = use(MapCreditContext);
  if (credit === null) return null;
  return (
    <div className="maplibregl-ctrl-bottom-right painted-credit">
      <details
        className="maplibregl-ctrl maplibregl-ctrl-attrib maplibregl-compact maplibregl-compact-show"
        open
      >
        <summary
          className="maplibregl-ctrl-attrib-button"
          title="Toggle attribution"
          aria-label="Toggle attribution"
        />
        {/* the server's own setting (BASEMAP), never a visitor's text */}
        <div
          id="painted-map-credit"
          className="maplibregl-ctrl-attrib-inner"
          dangerouslySetInnerHTML={{ __html: credit }}
        />
      </details>
    </div>
  );
}

const ignore = () => undefined;

/** The panel's rating line as the app draws it (reviews/PointReviews.tsx), its buttons inert until then. */
function PaintedRating({ point }: { point: PointFirstPaintData['point'] }) {
  const count = point.rating_count;
  return (
    <p className="point-panel__rating reviews-rating">
      {point.rating_display && count > 0 ? (
        <>
          <span aria-hidden="true">★</span>{' '}
          <span className="point-panel__rating-value">{point.rating_display}</span>
          <span className="point-panel__muted"> / 5 · </span>
          <button type="button" className="link-button">
            {count} {count === 1 ? 'review' : 'reviews'}
          </button>
        </>
      ) : (
        <>
          <span className="point-panel__muted">No reviews yet · </span>
          <button type="button" className="link-button">
            Write a review
          </button>
        </>
      )}
    </p>
  );
}

/** A point's level (/b/{id} and its kin) as the panel shows it before its reviews and controls load. */
export function PointFirstPaint({ data }: { data: PointFirstPaintData }) {
  const { point } = data;
  return (
    <FirstPaintFrame>
      <SidePanel title={point.title} className="point-panel" onClose={ignore} still>
        <MediaCarousel slides={point.carousel} title={point.title} />
        <PointSummary
          point={point}
          category={data.category}
          rating={<PaintedRating point={point} />}
          hoursText={data.hoursText ?? null}
        />
        <Description text={point.description ?? ''} />
        <div className="point-panel__actions">
          <PointActions
            point={point}
            onCallback={ignore}
            chat={
              <ChatButton
                pointId={point.id}
                controllers={[point.owner_username, point.consultant_username]}
              />
            }
          />
          {point.controls?.fullscreen && (
            <a className="xp-button" href={point.controls.fullscreen}>
              Full screen
            </a>
          )}
        </div>
        <PointFacts point={point} host={data.host} />
      </SidePanel>
    </FirstPaintFrame>
  );
}

/**
 * The landing card (shell/Landing.tsx itself: its home page is a lazy chunk, so the card is painted
 * with the same "Loading your city…" the app shows until that chunk and its answers arrive).
 */
export function LandingFirstPaint() {
  return (
    <FirstPaintFrame>
      <MemoryRouter>
        <Landing onExplore={ignore} />
      </MemoryRouter>
    </FirstPaintFrame>
  );
}

/** The map page with no panel open (/maps): the frame alone, the map's place waiting for the map. */
export function MapFirstPaint() {
  return <FirstPaintFrame />;
}

/**
 * A search's first page (/search/{keywords}, /maps/{keywords}) as the results panel shows it, in the
 * visitor's result mode: each result and each page a link, so the page is read and followed without
 * the app's script, and the app's panel then takes its place with the same answer.
 */
export function SearchFirstPaint({
  data,
  loc,
}: {
  data: SearchFirstPaintData;
  loc: MapLocation | undefined;
}) {
  const { query, page, mode } = data;
  const addressWith = (next: typeof query, extra = {}) => searchAddress(next, loc, extra);
  return (
    <FirstPaintFrame keywords={query.keywords} supertype={query.supertype ?? ''}>
      <ResultsPanel
        query={query}
        page={{ status: 'ready', page }}
        initialMode={mode}
        hrefOf={(result) => resultAddress(result, query, addressWith)}
        pageHref={(pageNumber) => addressWith({ ...query, pageNumber })}
        still
        onOpen={ignore}
        onPage={ignore}
        onClose={ignore}
        updateOnMove={false}
        onUpdateOnMove={ignore}
        showSearchHere={false}
        onSearchHere={ignore}
      />
    </FirstPaintFrame>
  );
}
