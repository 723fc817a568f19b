/**
 * The map's element while the map the early start made (mapCore.ts) waits for the shell's map to take
 * it over (issue 23). It shows in whichever box holds the map's place meanwhile: the one the server
 * painted, then the shell's placeholder (Shell.tsx), so it fills in behind the first screen and stays
 * on the screen when React replaces the painted page. No imports: the shell's first screen reads it
 * without maplibre, and the early start's script carries it (vite.config.ts).
 */
let shown: HTMLElement | null = null;

/** The early map's element, to show in the map's box until the map is taken over. */
export function earlyMapElement(): HTMLElement | null {
  return shown;
}

/** Offers `element` to the map's boxes (null once taken over). */
export function offerEarlyMapElement(element: HTMLElement | null): void {
  shown = element;
}

/** Marks the page's map as drawn: its first `idle` while on the screen (`npm run bench:map` times it). */
export function markMapDrawn(): void {
  document.body.dataset['mapDrawn'] = 'true';
}
