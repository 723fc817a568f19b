import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { MapData, Route, SearchSupertype } from '../../../shared/address';
import { PAGE_SIZES, type PagedSearchResponse, type SearchResult } from '../../../shared/api/search';
import { onVisitorMove, visibleBounds, visibleCentre, zoomOutMap } from '../../map/mapHandle';
import { showResultMarkers } from '../../map/resultMarkers';
import { useDocumentTitle, useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { PointPanel } from '../details/PointPanel';

/** An event opened from the results loads its panel then (the shell prefetches it once the map is idle). */
const EventPanel = lazy(() =>
  import('../details/EventPanel').then((module) => ({ default: module.EventPanel })),
);
import { fetchSearchPage } from './searchApi';
import { forgetSeededSearch, takeSeededSearch } from './searchSeed';
import {
  paginationItems,
  readResultMode,
  type PageItem,
  resultCountText,
  isEmptyQuery,
  storeResultMode,
  searchAddress,
  searchQueryOf,
  updateOnMoveDefault,
  type ResultMode,
  type SearchQuery,
} from './searchView';
import './search.css';
import { resultType } from './resultType';

type SearchRoute = Extract<Route, { screen: 'map-search' | 'landing-search' }>;

type PageState =
  | { status: 'loading' }
  | { status: 'ready'; page: PagedSearchResponse }
  | { status: 'error'; message: string };

/**
 * The search screens (§2 `/maps/{keywords}/data=` and `/search/{keywords}/data=`): runs the page the
 * address names, lists it in tile or list mode, draws its markers, and opens a result as the next
 * level (`data.xpoint`), keeping the results and markers underneath so back restores them.
 */
export function SearchScreen({ route }: { route: SearchRoute }) {
  const { navigation } = useShell();
  const query = useMemo(() => searchQueryOf(route.keywords, route.supertype, route.data), [route]);
  const queryKey = JSON.stringify(query);
  // the page the server painted this search with (issue 23): shown at once, not asked for again
  const [seeded] = useState(() => takeSeededSearch(query));
  const [state, setState] = useState<{ key: string; page: PageState }>(() =>
    seeded === null
      ? { key: '', page: { status: 'loading' } }
      : { key: queryKey, page: { status: 'ready', page: seeded } },
  );
  useEffect(() => forgetSeededSearch(), []);
  const opened = route.data.xpoint?.id;
  const openedEvent = route.data.event?.id;

  useEffect(() => {
    // nothing to look for (no words, no supertype): the panel asks for words
    if (isEmptyQuery(query)) return;
    if (seeded !== null && state.key === queryKey) return;
    const controller = new AbortController();
    fetchSearchPage(query, controller.signal, visibleCentre()).then(
      (page) => setState({ key: queryKey, page: { status: 'ready', page } }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({
            key: queryKey,
            page: { status: 'error', message: error instanceof Error ? error.message : String(error) },
          });
      },
    );
    return () => controller.abort();
    // the query is identified by its key
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryKey]);
  const page: PageState = state.key === queryKey ? state.page : { status: 'loading' };

  /** The address of this search with other data (a page, new bounds, an opened result). */
  const addressWith = useCallback(
    (next: SearchQuery, extra: Pick<MapData, 'xpoint' | 'event'> = {}) =>
      searchAddress(next, route.data.loc, extra),
    [route.data.loc],
  );

  const openResult = useCallback(
    (result: Pick<SearchResult, 'supertype' | 'marker'>) =>
      navigation.openLevel(resultAddress(result, query, addressWith)),
    [navigation, addressWith, query],
  );

  // markers of this page, clickable like the list; cleared when the search closes
  const results = page.status === 'ready' ? page.page.results : null;
  useEffect(() => {
    if (results === null) return;
    const byId = new Map(results.map((result) => [result.marker.id, result]));
    showResultMarkers(
      results.map((result, index) => ({
        id: result.marker.id,
        lng: result.marker.lng,
        lat: result.marker.lat,
        title: result.name,
        rank: (query.pageNumber - 1) * query.pageSize + index + 1,
      })),
      (id) => {
        const result = byId.get(id);
        if (result !== undefined) openResult(result);
      },
    );
  }, [results, query.pageNumber, query.pageSize, openResult]);
  useEffect(() => () => showResultMarkers([], null), []);

  // §4: moving the map re-searches only when update-on-move is on, there are keywords and nothing is open
  const [updateOnMove, setUpdateOnMove] = useState(() => updateOnMoveDefault(window.innerWidth));
  const [moved, setMoved] = useState(false);
  const researchHere = useCallback(() => {
    const bounds = visibleBounds();
    if (bounds === null) return;
    setMoved(false);
    navigation.replace(addressWith({ ...query, ...bounds, pageNumber: 1 }));
  }, [navigation, addressWith, query]);
  useEffect(
    () =>
      onVisitorMove(() => {
        if (opened !== undefined || openedEvent !== undefined || isEmptyQuery(query)) return;
        if (updateOnMove) researchHere();
        else setMoved(true);
      }),
    [opened, openedEvent, query, updateOnMove, researchHere],
  );

  if (opened !== undefined) return <PointPanel key={opened} id={opened} />;
  if (openedEvent !== undefined)
    return (
      <Suspense
        fallback={
          <SidePanel title="Loading…" className="event-panel" onClose={navigation.toMap}>
            <PanelLoader label="Loading the event…" />
          </SidePanel>
        }
      >
        <EventPanel key={openedEvent} id={openedEvent} />
      </Suspense>
    );
  return (
    <ResultsPanel
      query={query}
      page={page}
      initialMode={readResultMode(document.cookie)}
      hrefOf={(result) => resultAddress(result, query, addressWith)}
      onOpen={openResult}
      onPage={(next) => navigation.openLevel(addressWith(next))}
      onClose={navigation.toMap}
      updateOnMove={updateOnMove}
      onUpdateOnMove={setUpdateOnMove}
      showSearchHere={moved && !updateOnMove}
      onSearchHere={researchHere}
    />
  );
}

/**
 * Where a result opens: a post at its own address (/post/{id}); a point or an event as a level of the
 * search (§2: the search's data may hold an event id for a next-level detail), so back returns to it.
 */
export function resultAddress(
  result: Pick<SearchResult, 'supertype' | 'marker'>,
  query: SearchQuery,
  addressWith: (next: SearchQuery, extra: Pick<MapData, 'xpoint' | 'event'>) => string,
): string {
  if (result.supertype === 'post') return result.marker.data.hotpointclickurl;
  if (result.supertype === 'event') return addressWith(query, { event: { id: result.marker.id } });
  return addressWith(query, { xpoint: { id: result.marker.id } });
}

/**
 * The covers fetched with the page rather than when scrolled to: the first row or two of tiles, on the
 * screen at once. Lazy, the first cover was the painted search page's largest paint and waited 0.6 s
 * for the layout to say it was visible (Lighthouse, phone profile, /search/coffee).
 */
const EAGER_COVERS = 4;

const SUPERTYPE_NAMES: Readonly<Partial<Record<SearchSupertype, string>>> = {
  business: 'businesses',
  poi: 'places of interest',
  virtualstore: 'online stores',
  service: 'services',
  experience: 'experiences',
  rental: 'rentals',
  event: 'events',
  helprequest: 'help requests',
  incident: 'incidents',
};

interface ResultsPanelProps {
  query: SearchQuery;
  page: PageState;
  /** tiles or a list, as the visitor last chose (the `search.resultmode` cookie). */
  initialMode: ResultMode;
  /** a result's own address: each result is a link, which works without the app's script too. */
  hrefOf(result: SearchResult): string;
  /** a page's address: given, the pages are links (the server's first paint, read without script). */
  pageHref?: (pageNumber: number) => string;
  /** the server's first paint: the panel is where it is, without sliding in */
  still?: boolean;
  onOpen(result: SearchResult): void;
  onPage(next: SearchQuery): void;
  onClose(): void;
  updateOnMove: boolean;
  onUpdateOnMove(on: boolean): void;
  showSearchHere: boolean;
  onSearchHere(): void;
}

export function ResultsPanel({
  query,
  page,
  initialMode,
  hrefOf,
  pageHref,
  still = false,
  onOpen,
  onPage,
  onClose,
  updateOnMove,
  onUpdateOnMove,
  showSearchHere,
  onSearchHere,
}: ResultsPanelProps) {
  const [mode, setMode] = useState<ResultMode>(initialMode);
  const chooseMode = (next: ResultMode) => {
    setMode(next);
    storeResultMode(next);
  };
  const kinds = query.supertype !== null ? (SUPERTYPE_NAMES[query.supertype] ?? query.supertype) : '';
  const scope = kinds ? ` in ${kinds}` : '';
  // a supertype with no words lists that supertype here ('Rentals'), ranked as any search
  const browsing = query.keywords === '' && kinds !== '';
  const heading = browsing
    ? `${kinds.charAt(0).toUpperCase()}${kinds.slice(1)}`
    : `“${query.keywords}”${scope}`;
  useDocumentTitle(query.keywords ? `${query.keywords} — search` : browsing ? `${heading} — search` : null);

  let body;
  if (isEmptyQuery(query)) body = <ErrorPanel message="Type what you are looking for in the search box." />;
  else if (page.status === 'loading') body = <PanelLoader label="Searching…" />;
  else if (page.status === 'error') body = <ErrorPanel message={page.message} />;
  else if (page.page.results.length === 0)
    body = (
      <div className="search-empty">
        <p>
          {browsing
            ? `No ${kinds} in this area.`
            : `No places match “${query.keywords}”${scope} in this area.`}
        </p>
        <button
          type="button"
          className="xp-button"
          onClick={() => {
            zoomOutMap();
            window.setTimeout(onSearchHere, 350);
          }}
        >
          Search a wider area
        </button>
      </div>
    );
  else {
    const { results, posts_total: total, posts_total_exact: exact, page_current: current } = page.page;
    const pages = page.page.page_total;
    const first = (current - 1) * query.pageSize + 1;
    body = (
      <>
        <p className="search-results__count" aria-live="polite">
          {resultCountText(total, exact)} · showing {first}–{first + results.length - 1}
        </p>
        <ol className={`search-results search-results--${mode}`} start={first}>
          {results.map((result, index) => (
            <li key={result.marker.id}>
              <a
                className="search-result"
                href={hrefOf(result)}
                onClick={(event) => {
                  // a plain click opens the level here; a new tab or window is the browser's
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                    return;
                  event.preventDefault();
                  onOpen(result);
                }}
              >
                {mode === 'tile' && (
                  <span className="search-result__cover">
                    {result.cover_url ? (
                      <img
                        src={result.cover_url}
                        alt=""
                        // the first row is on screen at once: fetched with the page, the first one first
                        loading={index < EAGER_COVERS ? 'eager' : 'lazy'}
                        fetchPriority={index === 0 ? 'high' : 'auto'}
                      />
                    ) : null}
                  </span>
                )}
                <span className="search-result__rank" aria-hidden="true">
                  {first + index}
                </span>
                <span className="search-result__name">{result.name}</span>
                <span className="search-result__meta">
                  {[resultType(result), result.address].filter(Boolean).join(' · ')}
                </span>
                {result.stars_rating !== null && (
                  <span className="search-result__stars" aria-label={`Rated ${result.stars_rating} of 5`}>
                    ★ {result.stars_rating.toFixed(1)}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ol>
        <Pagination
          current={current}
          total={pages}
          onPage={(n) => onPage({ ...query, pageNumber: n })}
          pageHref={pageHref}
        />
      </>
    );
  }

  return (
    <SidePanel
      title={heading}
      className="search-panel"
      onClose={onClose}
      closeLabel="Close the search"
      still={still}
      levelKey={`${query.keywords}|${query.supertype ?? ''}|${query.pageNumber}`}
    >
      <div className="search-toolbar">
        <div className="segmented" role="radiogroup" aria-label="Show results as">
          {(['tile', 'list'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={mode === value}
              className="segmented__option"
              onClick={() => chooseMode(value)}
            >
              {value === 'tile' ? 'Tiles' : 'List'}
            </button>
          ))}
        </div>
        <label className="search-toolbar__size">
          Per page{' '}
          <select
            value={query.pageSize}
            onChange={(event) => onPage({ ...query, pageSize: Number(event.target.value), pageNumber: 1 })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <label className="search-toolbar__move">
          <input
            type="checkbox"
            checked={updateOnMove}
            onChange={(event) => onUpdateOnMove(event.target.checked)}
          />
          Search as I move the map
        </label>
      </div>
      {showSearchHere && (
        <button type="button" className="xp-button xp-button--primary search-here" onClick={onSearchHere}>
          Search this area
        </button>
      )}
      {body}
    </SidePanel>
  );
}

function Pagination({
  current,
  total,
  onPage,
  pageHref,
}: {
  current: number;
  total: number;
  onPage(n: number): void;
  pageHref: ((n: number) => string) | undefined;
}) {
  const items = paginationItems(current, total);
  if (items.length <= 1) return null;
  // the server's first paint: the same controls as links, read and followed without the app's script
  if (pageHref !== undefined)
    return <PaginationLinks current={current} total={total} items={items} href={pageHref} />;
  return (
    <nav className="pagination" aria-label="Result pages">
      <button type="button" disabled={current <= 1} onClick={() => onPage(current - 1)}>
        Previous
      </button>
      {items.map((item, index) =>
        item === 'gap' ? (
          <span key={`gap${index}`} className="pagination__gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            aria-current={item === current ? 'page' : undefined}
            aria-label={`Page ${item}`}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        ),
      )}
      <button type="button" disabled={current >= total} onClick={() => onPage(current + 1)}>
        Next
      </button>
    </nav>
  );
}

function PaginationLinks({
  current,
  total,
  items,
  href,
}: {
  current: number;
  total: number;
  items: PageItem[];
  href(n: number): string;
}) {
  const step = (label: string, n: number, enabled: boolean) =>
    enabled ? <a href={href(n)}>{label}</a> : <span aria-disabled="true">{label}</span>;
  return (
    <nav className="pagination" aria-label="Result pages">
      {step('Previous', current - 1, current > 1)}
      {items.map((item, index) =>
        item === 'gap' ? (
          <span key={`gap${index}`} className="pagination__gap" aria-hidden="true">
            …
          </span>
        ) : (
          <a
            key={item}
            href={href(item)}
            aria-current={item === current ? 'page' : undefined}
            aria-label={`Page ${item}`}
          >
            {item}
          </a>
        ),
      )}
      {step('Next', current + 1, current < total)}
    </nav>
  );
}
