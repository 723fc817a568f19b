import {
  Suspense,
  createContext,
  lazy,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import { parseAddress, type ParsedAddress, type Route } from '../../shared/address';
import { LiveActivity } from '../live/LiveActivity';
import { ClusterList } from '../map/ClusterList';
import { MapView } from '../map/MapView';
import { useMapNavigation } from '../map/useMapNavigation';
import { MapButtons } from '../features/accounts/MapButtons';
import { MyPointsPanel } from '../features/accounts/MyPointsPanel';
import { UserMenu } from '../features/accounts/UserMenu';
import { EventPanel } from '../features/details/EventPanel';
import { FullScreenScreen } from '../features/details/FullScreenScreen';
import { EventDeleteRoute, EventFormRoute, PointActionRoute } from '../features/owner/OwnerRoutes';
import { PointPanel } from '../features/details/PointPanel';
import { SearchForm } from '../features/search/SearchForm';
import { SearchScreen } from '../features/search/SearchScreen';
import { Landing } from './Landing';
import { useShellNavigation, type ShellNavigation } from './navigation';
import { ErrorPanel, PanelLoader, SidePanel } from './SidePanel';
import { applyStateClasses, viewModeCookie, viewStateFor } from './viewMode';
import './shell.css';

/** The add-new flow loads when first opened: its form brings the write contracts' rules along. */
const AddNewPanel = lazy(() => import('../features/addnew/AddNewPanel'));
/** The owner's edit and copy-to-new forms load when first opened, with the write contracts and opening_hours. */
const PointEditPanel = lazy(() =>
  import('../features/owner/PointEditPanel').then((module) => ({ default: module.PointEditPanel })),
);

/** The page title in map mode; every level sets its own and this comes back with the map (§4). */
export const DEFAULT_TITLE = "XPoint — what's around you";

interface ShellContextValue {
  parsed: ParsedAddress;
  route: Route;
  navigation: ShellNavigation;
}

const ShellContext = createContext<ShellContextValue | null>(null);

/** The current route and the level navigation, for panels inside the shell. */
export function useShell(): ShellContextValue {
  const value = useContext(ShellContext);
  if (value === null) throw new Error('useShell needs the Shell');
  return value;
}

/** Sets the page title while mounted; the shell puts the default back in map mode. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = `${title} · XPoint`;
  }, [title]);
}

/**
 * The app shell (map-and-search §2, §4): the address is the state. Every page route renders this one
 * component, so the map is created once and kept while the panels over it follow the address: the
 * route decides the view modes and body classes, the side panel's level and its content.
 */
export function Shell() {
  const location = useLocation();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  const parsed = useMemo(
    () => parseAddress(location.pathname, location.search),
    [location.pathname, location.search],
  );
  const { route, problem, replaceWith } = parsed;
  const navigation = useShellNavigation(route);
  const mapNavigation = useMapNavigation();

  // cleaned addresses (/search/data=... → /) replace the one typed, without a history entry
  useEffect(() => {
    if (replaceWith !== undefined) void navigate(replaceWith, { replace: true });
  }, [replaceWith, navigate]);

  // §8: bad JSON in the address closes the side panel (the parser answered map mode) and is logged
  useEffect(() => {
    if (problem?.kind === 'bad-data')
      console.error(`XPoint: the address's data segment could not be read (${problem.detail}).`);
  }, [problem]);

  // view modes: body classes and the view-mode cookie follow the route
  const [suggestionsOpen, setSuggestionsOpen] = useState(false);
  const view = useMemo(() => viewStateFor(route, { suggestionsOpen }), [route, suggestionsOpen]);
  useEffect(() => {
    applyStateClasses(document.body, view.classes);
    document.cookie = viewModeCookie(view.flags);
  }, [view]);

  // map mode has the default title; a level sets its own while it is open
  useEffect(() => {
    if (route.screen === 'map' || route.screen === 'landing') document.title = DEFAULT_TITLE;
  }, [route]);

  // '' and /home: a visit clears the map hash; back navigation just shows the landing page (§2)
  const onLanding = route.screen === 'landing';
  useEffect(() => {
    if (onLanding && navigationType !== 'POP' && window.location.hash !== '') {
      window.history.replaceState(
        window.history.state,
        '',
        window.location.pathname + window.location.search,
      );
    }
  }, [onLanding, navigationType]);

  const context = useMemo(() => ({ parsed, route, navigation }), [parsed, route, navigation]);
  return (
    <ShellContext.Provider value={context}>
      <div className="app">
        <header className="topbar">
          <a className="brand" href="/" aria-label="XPoint home">
            <span className="brand__long">XPoint</span>
            <span className="brand__short" aria-hidden="true">
              X
            </span>
          </a>
          <div className="topbar__search">
            <SearchForm onSuggestionsOpen={setSuggestionsOpen} />
          </div>
          <UserMenu />
        </header>
        <main className="map-area">
          <MapView {...mapNavigation} />
          <LiveActivity />
          <ShellPanel parsed={parsed} navigation={navigation} />
          <MapButtons />
        </main>
      </div>
    </ShellContext.Provider>
  );
}

/** The panel a route shows over the map, or none in map mode. */
function ShellPanel({
  parsed,
  navigation,
}: {
  parsed: ParsedAddress;
  navigation: ShellNavigation;
}): ReactNode {
  const { route, problem } = parsed;
  const back = navigation.canGoBack ? navigation.back : undefined;
  const failure = (title: string, message: string) => (
    <SidePanel title={title} className="error-level" onClose={navigation.toMap} onBack={back}>
      <ErrorPanel message={message} />
    </SidePanel>
  );

  switch (route.screen) {
    case 'map':
    case 'profile':
      return null;
    case 'landing':
      return <Landing onExplore={navigation.toMap} />;
    case 'cluster':
    case 'momcluster':
      return <ClusterList />;
    case 'meonmap':
    case 'myhelprequests':
      return <MyPointsPanel />;
    case 'point':
      return <PointPanel key={route.id} id={route.id} />;
    case 'map-search':
    case 'landing-search':
      return <SearchScreen route={route} />;
    case 'event':
      return <EventPanel key={route.eventId} id={route.eventId} />;
    case 'event-page':
      return <EventPanel key={route.id} id={route.id} />;
    case 'fullscreen':
      return <FullScreenScreen key={route.id} id={route.id} />;
    case 'point-landing':
      return <PointPanel key={route.id} id={route.id} />;
    case 'add-new':
      if (problem !== undefined)
        return failure('Add a new XPoint', `The address is not valid: ${problem.detail}.`);
      return (
        <Suspense
          fallback={
            <SidePanel title="Add a new XPoint" className="addnew-panel" onClose={navigation.toMap}>
              <PanelLoader />
            </SidePanel>
          }
        >
          <AddNewPanel route={route} />
        </Suspense>
      );
    case 'delete-redirect':
    case 'experience-delete':
    case 'rental-delete':
      return (
        <PointActionRoute
          key={`${route.screen}:${route.id}`}
          action="delete"
          id={route.id}
          successUrl={route.successUrl}
        />
      );
    case 'claim':
      return <PointActionRoute key={`${route.screen}:${route.id}`} action="claim" id={route.id} />;
    case 'become-consultant':
      return (
        <PointActionRoute key={`${route.screen}:${route.id}`} action="become-consultant" id={route.id} />
      );
    case 'clear-consultant':
      return (
        <PointActionRoute
          key={`${route.screen}:${route.id}`}
          action="clear-consultant"
          id={route.id}
          successUrl={route.successUrl}
        />
      );
    case 'event-edit':
      return (
        <EventFormRoute
          key={`${route.screen}:${route.id}`}
          mode="edit"
          id={route.id}
          successUrl={route.successUrl}
        />
      );
    case 'event-copy':
      return (
        <EventFormRoute
          key={`${route.screen}:${route.id}`}
          mode="copy"
          id={route.id}
          successUrl={route.successUrl}
        />
      );
    case 'event-add-child':
      return <EventFormRoute key={route.parentId} mode="add-child" id={route.parentId} />;
    case 'event-delete':
      return (
        <EventDeleteRoute key={`${route.screen}:${route.id}`} id={route.id} successUrl={route.successUrl} />
      );
    case 'point-edit':
    case 'service-edit':
    case 'experience-edit':
    case 'rental-edit':
    case 'helprequest-copy':
      if (problem !== undefined)
        return failure('Edit XPoint', `The address is not valid: ${problem.detail}.`);
      return (
        <Suspense
          fallback={
            <SidePanel title="Edit XPoint" className="point-edit" onClose={navigation.toMap}>
              <PanelLoader />
            </SidePanel>
          }
        >
          <PointEditPanel
            key={`${route.screen}/${route.id}`}
            id={route.id}
            successUrl={route.successUrl}
            mode={route.screen === 'helprequest-copy' ? 'copy' : 'edit'}
          />
        </Suspense>
      );
    case 'not-found':
      return failure('Page not found', `There is no page at ${route.path || 'this address'}.`);
    default:
      return failure('Not available yet', 'This page is not available yet.');
  }
}
