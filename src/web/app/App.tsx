import type { FormEvent } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { MapView } from '../map/MapView';

function preventSubmit(event: FormEvent<HTMLFormElement>) {
  // Search arrives in a later issue; until then the box is a placeholder.
  event.preventDefault();
}

/** The map page: a full-viewport map under a small top bar. */
function MapPage() {
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="/" aria-label="XPoint home">
          XPoint
        </a>
        <form className="search" role="search" onSubmit={preventSubmit}>
          <input
            className="search-input"
            type="search"
            name="q"
            placeholder="Search places and events"
            aria-label="Search XPoint"
            autoComplete="off"
          />
        </form>
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
