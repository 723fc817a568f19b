import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router';
import { buildAddress, type Route } from '../../shared/address';
import { focusMap } from '../map/mapHandle';

/**
 * History between levels (map-and-search §4): the address is the state, so every view is restored
 * from it on back and forward. A level opened from another (results → point → event, cluster →
 * point) carries the address it came from in its history entry; its back button then goes back in
 * history, restoring the level before exactly as it was. A level reached straight from the address
 * bar has no such entry, and its back button goes to the level the address itself names as its
 * parent (a search result's point → the results), else to the map.
 */

/** What a history entry of ours holds. */
export interface LevelState {
  /** the address (path and query) of the level this one was opened from. */
  xpFrom: string;
}

export function isLevelState(state: unknown): state is LevelState {
  return typeof state === 'object' && state !== null && typeof (state as LevelState).xpFrom === 'string';
}

/** The level an address names as the one before it, or null when only the map is before it. */
export function parentAddress(route: Route): string | null {
  if (route.screen === 'map-search' && route.data.xpoint !== undefined) {
    const { xpoint: _opened, ...data } = route.data;
    return buildAddress({ ...route, data });
  }
  return null;
}

/** The map's hash goes along with every move between levels: the view stays where it is. */
function withHash(to: string): string {
  const hash = window.location.hash;
  return to.includes('#') || hash === '' ? to : `${to}${hash}`;
}

export interface ShellNavigation {
  /** Opens `to` as the next level after the current one. */
  openLevel(to: string): void;
  /** True when the back button has a level to return to. */
  canGoBack: boolean;
  /** Restores the previous level. */
  back(): void;
  /** Returns to map mode (§4): the panel closes, the address becomes /maps, the map takes focus. */
  toMap(): void;
  /** Replaces the address without a new history entry (prefix correction, cleaned addresses). */
  replace(to: string): void;
}

export function useShellNavigation(route: Route): ShellNavigation {
  const navigate = useNavigate();
  const location: Location = useLocation();
  const from = isLevelState(location.state) ? location.state.xpFrom : null;
  const parent = parentAddress(route);
  const here = `${location.pathname}${location.search}`;

  const openLevel = useCallback(
    (to: string) => void navigate(withHash(to), { state: { xpFrom: here } satisfies LevelState }),
    [navigate, here],
  );
  const back = useCallback(() => {
    if (from !== null) void navigate(-1);
    else if (parent !== null) void navigate(withHash(parent));
    else void navigate(withHash('/maps'));
  }, [navigate, from, parent]);
  // the panel closes: focus goes to the map it was covering, not to the top of the page
  const toMap = useCallback(() => {
    void navigate(withHash('/maps'));
    focusMap();
  }, [navigate]);
  const replace = useCallback(
    (to: string) => void navigate(withHash(to), { replace: true, state: location.state as unknown }),
    [navigate, location.state],
  );
  return useMemo(
    () => ({ openLevel, canGoBack: from !== null || parent !== null, back, toMap, replace }),
    [openLevel, from, parent, back, toMap, replace],
  );
}
