import { createBrowserRouter, RouterProvider } from 'react-router';
import { MapView } from '../map/MapView';

/** The map page: a full-viewport map under a small top bar (the search form joins it with search). */
function MapPage() {
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="/" aria-label="XPoint home">
          XPoint
        </a>
      </header>
      <main className="map-area">
        <MapView />
      </main>
    </div>
  );
}

/** Every page route renders the map for now; the app shell (side panel, view modes) comes later. */
const router = createBrowserRouter([
  { path: '/', element: <MapPage /> },
  { path: '*', element: <MapPage /> },
]);

export function App() {
  return <RouterProvider router={router} />;
}
