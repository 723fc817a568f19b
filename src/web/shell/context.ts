import { createContext, useContext, useEffect } from 'react';
import type { ParsedAddress, Route } from '../../shared/address';
import type { ShellNavigation } from './navigation';

/**
 * What the shell shares with the panels inside it. It lives apart from the route switch
 * (Shell.tsx): features import this module, the route switch imports the features, so there is no
 * import circle (eslint's import-x/no-cycle holds src/web to that).
 */

/** The page title in map mode; every level sets its own and this comes back with the map (§4). */
export const DEFAULT_TITLE = "XPoint — what's around you";

export interface ShellContextValue {
  parsed: ParsedAddress;
  route: Route;
  navigation: ShellNavigation;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

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
