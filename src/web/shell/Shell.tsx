import {
  Suspense,
  lazy,
  use,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import { parseAddress, type ParsedAddress } from '../../shared/address';
import { LiveActivity } from '../live/LiveActivity';
import { earlyMapElement } from '../map/earlyMap';
import { onMapReady } from '../map/mapHandle';
import type * as MapViewModule from '../map/MapView';
import type * as PointPanelModule from '../features/details/PointPanel';
import type { MapViewProps } from '../map/MapView';
import { useMapNavigation } from '../map/useMapNavigation';
import { MapButtons } from '../features/accounts/MapButtons';
import { MyPointsPanel } from '../features/accounts/MyPointsPanel';
import { UserMenu } from '../features/accounts/UserMenu';
import { ConnectionPinger } from '../features/pinger/ConnectionPinger';
import { UpdateNotice } from '../pwa/UpdateNotice';
import { EventDeleteRoute, EventFormRoute, PointActionRoute } from '../features/owner/OwnerRoutes';
import { withoutCreatePost } from '../features/posts/flags';
import { onPostWrite } from '../features/posts/writes';
import { InviteReviewRoute } from '../features/reviews/InviteReviewRoute';
import { refreshPointTiles, refreshPointTilesAt } from '../map/pointTiles';
import { SearchForm } from '../features/search/SearchForm';
import { DEFAULT_TITLE, ShellContext } from './context';
import { badLinkMessage } from './badLink';
import { Brand } from './Brand';
import { Landing } from './Landing';
import { useShellNavigation, type ShellNavigation } from './navigation';
import { ErrorPanel, PanelLoader, SidePanel } from './SidePanel';
import { applyStateClasses, viewModeCookie, viewStateFor } from './viewMode';
import '../map/map.css';
import './shell.css';

/** The add-new flow loads when first opened: its form brings the write contracts' rules along. */
// a cluster's list (and the category names it shows) loads when a cluster is opened
const ClusterList = lazy(() =>
  import('../map/ClusterList').then((module) => ({ default: module.ClusterList })),
);
// The map and maplibre are a chunk of their own (issue 23): the first screen (the top bar, the side
// panel's text) renders without them, and the map fills in behind it in a box of the same size. Its
// fetch starts as this module runs, before the first render, so maplibre downloads and compiles while
// React draws the first screen. Not React.lazy: React 19 holds a Suspense boundary's content back
// until 300 ms after its fallback showed (bench:map measured the map's first idle 230 ms later).
const mapViewChunk = import('../map/MapView');
let mapViewModule: typeof MapViewModule | null = null;
void mapViewChunk.then((module) => (mapViewModule = module));

function MapViewWhenLoaded(props: MapViewProps) {
  const [module, setModule] = useState(mapViewModule);
  useEffect(() => {
    if (module !== null) return;
    let mounted = true;
    void mapViewChunk.then((loaded) => mounted && setModule(loaded));
    return () => {
      mounted = false;
    };
  }, [module]);
  if (module === null) return <MapPlaceholder />;
  return <module.MapView {...props} />;
}

/**
 * The map's place while its chunk loads, in the basemap's colour. The map the early start made
 * (map/earlyMap.ts) shows in it, moved from the painted page React has just replaced, before the
 * browser paints.
 */
function MapPlaceholder() {
  const boxRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = earlyMapElement();
    if (element !== null) boxRef.current?.append(element);
  }, []);
  return <div ref={boxRef} className="map-view" role="region" aria-label="Map" aria-busy="true" />;
}
const AddNewPanel = lazy(() => import('../features/addnew/AddNewPanel'));
/**
 * A point's level, an event's, the search results and the in-app full-screen page load when first
 * opened: the map page, where nearly every visit starts, does without them (README "initial JS"
 * budget). Each placeholder is the one its panel shows while its answer loads, so the wait looks
 * the same.
 */
const loadSearchScreen = () => import('../features/search/SearchScreen');
let pointPanelModule: typeof PointPanelModule | null = null;
let pointPanelLoad: Promise<typeof PointPanelModule> | null = null;
const loadPointPanel = () =>
  (pointPanelLoad ??= import('../features/details/PointPanel').then(
    (module) => (pointPanelModule = module),
    (error: unknown) => {
      // the next open tries again
      pointPanelLoad = null;
      throw error;
    },
  ));
const loadEventPanel = () => import('../features/details/EventPanel');
const SearchScreen = lazy(() => loadSearchScreen().then((module) => ({ default: module.SearchScreen })));
/**
 * A point's level: at once when its module is loaded (a painted first screen loads it before the
 * first render), else suspended until it is. One component either way, so the level is never
 * mounted twice (React.lazy cannot render a loaded module synchronously on its first render).
 */
function PointPanel(props: { id: string }) {
  const module = pointPanelModule ?? use(loadPointPanel());
  return <module.PointPanel {...props} />;
}
const EventPanel = lazy(() => loadEventPanel().then((module) => ({ default: module.EventPanel })));

/**
 * The levels a visitor opens first (a point, an event, search results) are fetched once the map has
 * first gone idle, so the first click on a point waits for its details, not for its script too.
 */
function prefetchFirstLevels(): void {
  for (const load of [loadPointPanel, loadEventPanel, loadSearchScreen])
    load().catch((error: unknown) => console.warn('XPoint: could not prefetch a panel', error));
}
/**
 * Loads a point's level before the app's first render, when the server painted that level (issue 23;
 * ssr/takeOver.ts): the panel then renders at once, in the painted panel's place, instead of a loader.
 */
export function preloadPointLevel(): Promise<unknown> {
  return loadPointPanel();
}
/** The same for a search's results, when the server painted them. */
export function preloadSearchLevel(): Promise<unknown> {
  return loadSearchScreen();
}
const FullScreenScreen = lazy(() =>
  import('../features/details/FullScreenScreen').then((module) => ({ default: module.FullScreenScreen })),
);
/** The posts modal (/post/{id}, createpost=open) loads when first opened, with its form and cropper. */
const PostRoute = lazy(() =>
  import('../features/posts/PostRoute').then((module) => ({ default: module.PostRoute })),
);
const CreatePostModal = lazy(() =>
  import('../features/posts/PostRoute').then((module) => ({ default: module.CreatePostModal })),
);
/** Booking a rental (issue 22) loads when first opened, with its calendar. */
const RentalBookingPage = lazy(() =>
  import('../features/bookings/RentalBookingPage').then((module) => ({ default: module.RentalBookingPage })),
);
/** Chat with a point and the inbox (issue 22) load when first opened. */
const ChatPanel = lazy(() =>
  import('../features/chat/ChatPanel').then((module) => ({ default: module.ChatPanel })),
);
const InboxPanel = lazy(() =>
  import('../features/chat/InboxPanel').then((module) => ({ default: module.InboxPanel })),
);
/** The owner's edit and copy-to-new forms load when first opened, with the write contracts and opening_hours. */
const PointEditPanel = lazy(() =>
  import('../features/owner/PointEditPanel').then((module) => ({ default: module.PointEditPanel })),
);

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

  useEffect(() => onMapReady(prefetchFirstLevels), []);
  // a post with a place is on the map: its save shows there at once, and its expiry takes it off
  useEffect(
    () =>
      onPostWrite((post) => {
        refreshPointTiles();
        if (post?.expireson != null) refreshPointTilesAt(post.expireson);
      }),
    [],
  );

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

  // social §2: createpost=open opens the post form over any page, then leaves the address (replace);
  // on a full-screen point page its posts block opens it with the point chosen
  const [creatingPost, setCreatingPost] = useState({ count: 0, open: false });
  const createPostFlag = parsed.createPost && route.screen !== 'fullscreen';
  const [seenCreatePost, setSeenCreatePost] = useState(false);
  if (createPostFlag !== seenCreatePost) {
    // adjusted while rendering (React's way for state that follows a prop): each flag opens it anew
    setSeenCreatePost(createPostFlag);
    if (createPostFlag) setCreatingPost(({ count }) => ({ count: count + 1, open: true }));
  }
  useEffect(() => {
    if (!createPostFlag) return;
    void navigate(withoutCreatePost(location.pathname, location.search) + location.hash, { replace: true });
  }, [createPostFlag, navigate, location.pathname, location.search, location.hash]);

  const context = useMemo(() => ({ parsed, route, navigation }), [parsed, route, navigation]);
  return (
    <ShellContext.Provider value={context}>
      <div className="app">
        <header className="topbar">
          <Brand />
          <div className="topbar__search">
            <SearchForm onSuggestionsOpen={setSuggestionsOpen} />
          </div>
          <ConnectionPinger />
          <UserMenu />
        </header>
        <main className="map-area">
          <MapViewWhenLoaded {...mapNavigation} />
          <LiveActivity />
          <ShellPanel parsed={parsed} navigation={navigation} />
          <MapButtons />
        </main>
        <UpdateNotice />
        {creatingPost.open && (
          <Suspense fallback={null}>
            <CreatePostModal
              key={creatingPost.count}
              onClosed={() => setCreatingPost(({ count }) => ({ count, open: false }))}
            />
          </Suspense>
        )}
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
  /** A level whose script loads when first opened: meanwhile its panel shows its own loading state. */
  const lazyLevel = (
    loading: { title: string; className: string; label?: string; withBack?: boolean },
    level: ReactNode,
  ) => (
    <Suspense
      fallback={
        <SidePanel
          title={loading.title}
          className={loading.className}
          onClose={navigation.toMap}
          onBack={loading.withBack ? back : undefined}
        >
          <PanelLoader {...(loading.label === undefined ? {} : { label: loading.label })} />
        </SidePanel>
      }
    >
      {level}
    </Suspense>
  );

  switch (route.screen) {
    case 'map':
      // a link whose data holds a value that cannot be used (bounds off the globe, an unknown
      // supertype) says why, closing shows the map (issue 21); data that is not JSON at all closes
      // the panel as §8 says (the reason then names no field)
      if (problem?.kind === 'bad-data' && /^[\w.]+: /.test(problem.detail))
        return failure(
          'This link could not be opened',
          badLinkMessage(window.location.pathname, problem.detail),
        );
      return null;
    case 'profile':
      return null;
    case 'landing':
      return <Landing onExplore={navigation.toMap} />;
    case 'cluster':
    case 'momcluster':
      return lazyLevel(
        { title: 'Places here', className: 'cluster-list', label: 'Loading the places…' },
        <ClusterList />,
      );
    case 'meonmap':
    case 'myhelprequests':
      return <MyPointsPanel />;
    case 'point':
    case 'point-landing':
      return lazyLevel(
        { title: 'Loading…', className: 'point-panel', label: 'Loading the place…', withBack: true },
        <PointPanel key={route.id} id={route.id} />,
      );
    case 'map-search':
    case 'landing-search':
      return lazyLevel(
        { title: `“${route.keywords}”`, className: 'search-panel', label: 'Searching…' },
        <SearchScreen route={route} />,
      );
    case 'event':
    case 'event-page': {
      const id = route.screen === 'event' ? route.eventId : route.id;
      return lazyLevel(
        { title: 'Loading…', className: 'event-panel', label: 'Loading the event…', withBack: true },
        <EventPanel key={id} id={id} />,
      );
    }
    case 'fullscreen':
      return (
        <Suspense
          fallback={
            <div className="fullscreen-overlay">
              <PanelLoader label="Loading the place…" />
            </div>
          }
        >
          <FullScreenScreen key={route.id} id={route.id} />
        </Suspense>
      );
    case 'add-new':
      if (problem !== undefined)
        return failure('Add a new XPoint', `The address is not valid: ${problem.detail}.`);
      return lazyLevel(
        { title: 'Add a new XPoint', className: 'addnew-panel' },
        <AddNewPanel route={route} />,
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
      return lazyLevel(
        { title: 'Edit XPoint', className: 'point-edit' },
        <PointEditPanel
          key={`${route.screen}/${route.id}`}
          id={route.id}
          successUrl={route.successUrl}
          mode={route.screen === 'helprequest-copy' ? 'copy' : 'edit'}
        />,
      );
    case 'post':
      return (
        <Suspense fallback={null}>
          <PostRoute key={route.id} id={route.id} />
        </Suspense>
      );
    case 'invite-review':
      return <InviteReviewRoute appId={route.appId} />;
    case 'rental-book':
      return lazyLevel(
        {
          title: 'Book a rental',
          className: 'bookings-panel',
          label: 'Loading the calendar…',
          withBack: true,
        },
        <RentalBookingPage key={route.id} id={route.id} />,
      );
    case 'chat':
      return lazyLevel(
        { title: 'Chat', className: 'chat-panel', label: 'Loading the conversation…', withBack: true },
        <ChatPanel
          key={`${route.pointId}/${route.visitorId ?? ''}`}
          pointId={route.pointId}
          visitorId={route.visitorId}
        />,
      );
    case 'inbox':
      return lazyLevel({ title: 'Inbox', className: 'chat-inbox-panel' }, <InboxPanel tab={route.tab} />);
    case 'not-found':
      return failure('Page not found', `There is no page at ${route.path || 'this address'}.`);
    default:
      return failure('Not available yet', 'This page is not available yet.');
  }
}
