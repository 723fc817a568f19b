import { useNavigate } from 'react-router';
import { MY_POINTS_PAGES } from './MyPointsPanel';
import { useSession } from './session';
import './accounts.css';

/**
 * The "buttons on the map" (map-and-search §2): My help requests and Me on map, shown to everyone.
 * A visitor gets the login modal with the reason, then lands on the page once signed in.
 */
export function MapButtons() {
  const { requireAccount, loading } = useSession();
  const navigate = useNavigate();
  const open = (page: (typeof MY_POINTS_PAGES)[keyof typeof MY_POINTS_PAGES]) => {
    const go = () => navigate(page.path);
    // while the session is still being read, the page itself asks for an account if need be
    if (loading || requireAccount(page.reason, go)) go();
  };
  return (
    <nav className="map-buttons" aria-label="Your things on the map">
      <button
        type="button"
        className="map-buttons__button"
        onClick={() => open(MY_POINTS_PAGES.helpRequests)}
      >
        My help requests
      </button>
      <button type="button" className="map-buttons__button" onClick={() => open(MY_POINTS_PAGES.meOnMap)}>
        Me on map
      </button>
    </nav>
  );
}
