import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CITY_MOVE_DELAY_MS, isUsableCityOption } from '../../../shared/api/home';
import { initialLocation } from '../../../shared/map/startView';
import { CityFeed } from './CityFeed';
import { CityPicker } from './CityPicker';
import { shouldMoveMap, moveMapTo, type LocationSource, type PickedCity } from './cityMove';
import { nearbyQuery } from './homeApi';
import { MoneyCounter } from './MoneyCounter';
import { NearbyList } from './NearbyList';
import './home.css';

/** A position the device gave in this tab (location source 2 on the next visit of the home page). */
const DEVICE_POSITION_KEY = 'xp_device_position';

function storedDevicePosition(): { lat: number; lon: number } | null {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(DEVICE_POSITION_KEY) ?? 'null') as unknown;
    if (value && typeof value === 'object') {
      const { lat, lon } = value as Record<string, unknown>;
      if (typeof lat === 'number' && typeof lon === 'number') return { lat, lon };
    }
  } catch {
    // storage blocked or unreadable: no stored position
  }
  return null;
}

/**
 * The home page's content (social §1, §2; '' and /home): the money counter, the city whose news
 * shows (the chosen one, else the nearest to the map's place or the device's), the top-destinations
 * modal, the nearby-locations list and the horizontal city feed (last: it comes last, after the
 * nearby answer names the city, and grows the card at its end). Choosing a city moves the map there
 * after 200 ms (the `mapbox_loc_json` cookie at zoom 9.7), unless the location came from the device.
 */
export default function HomePage() {
  const [origin, setOrigin] = useState<{ lat: number; lon: number; source: LocationSource }>(() => {
    const device = storedDevicePosition();
    if (device) return { ...device, source: 2 };
    const map = initialLocation({ hash: '', pathname: '/', cookies: document.cookie });
    return { lat: map.lat, lon: map.lng, source: 0 };
  });
  const [picked, setPicked] = useState<PickedCity | null>(null);
  const [picking, setPicking] = useState(false);
  const [locating, setLocating] = useState<'idle' | 'asking' | 'refused'>('idle');
  const nearby = useQuery(nearbyQuery(origin));
  const moveTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(moveTimer.current), []);

  const city = picked ?? nearby.data?.[0] ?? null;

  const choose = (option: PickedCity) => {
    // social §5: an option without city_forurl is refused
    if (!isUsableCityOption(option)) return;
    setPicked(option);
    setPicking(false);
    // the nearby list follows the chosen city; where the location came from does not change
    setOrigin((current) => ({ lat: option.lat, lon: option.lon, source: current.source }));
    window.clearTimeout(moveTimer.current);
    if (shouldMoveMap(option, origin.source))
      moveTimer.current = window.setTimeout(() => moveMapTo(option), CITY_MOVE_DELAY_MS);
  };

  const locateDevice = () => {
    if (!('geolocation' in navigator)) {
      setLocating('refused');
      return;
    }
    setLocating('asking');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        const at = { lat: coords.latitude, lon: coords.longitude };
        try {
          window.sessionStorage.setItem(DEVICE_POSITION_KEY, JSON.stringify(at));
        } catch {
          // kept for this page only
        }
        setOrigin({ ...at, source: 1 });
        setPicked(null);
        setLocating('idle');
      },
      () => setLocating('refused'),
      { maximumAge: 600_000, timeout: 10_000 },
    );
  };

  return (
    <div className="home">
      <MoneyCounter />
      <div className="home-city">
        <p className="home-city__current">
          {city ? (
            <>
              Showing <strong>{city.city}</strong>
            </>
          ) : (
            'Finding your city…'
          )}
        </p>
        <div className="home-city__actions">
          <button type="button" className="xp-button home-city__change" onClick={() => setPicking(true)}>
            Top destinations
          </button>
          <button
            type="button"
            className="link-button"
            onClick={locateDevice}
            disabled={locating === 'asking'}
          >
            {locating === 'asking' ? 'Locating…' : 'Use my location'}
          </button>
        </div>
        {locating === 'refused' && (
          <p className="home-city__note" role="status">
            Your device did not share its location; pick a city instead.
          </p>
        )}
      </div>
      <NearbyList nearby={nearby} currentId={city?.id ?? null} onPick={choose} />
      {city && <CityFeed key={city.id} cityId={city.id} cityName={city.city} />}
      {picking && <CityPicker onPick={choose} onClose={() => setPicking(false)} />}
    </div>
  );
}
