import { Marker, type IControl, type Map as MaplibreMap } from 'maplibre-gl';

/**
 * The "my location" button (issue 21, item 10): a map control under the visitor's hand that asks
 * the browser where they are only when clicked (never on load), then centres the map there with a
 * blue dot. A refusal or a failure says so in words beside the map, never silently.
 */

/** §9: a fly-to lands at zoom 10 at least; a person's own spot is better seen at street level. */
const MY_LOCATION_ZOOM = 15;
const TIMEOUT_MS = 15_000;

export const GEOLOCATION_MESSAGES = {
  denied:
    'XPoint cannot see where you are: location access is blocked for this site. Allow it in your browser’s site settings, then try again.',
  unavailable:
    'Your location could not be found just now. Check that location services are on and try again.',
  timeout: 'Finding your location took too long. Try again in a moment.',
  unsupported: 'This browser cannot tell XPoint where you are.',
} as const;

/** The message for a failed position: what the browser said, in the visitor's words. */
export function geolocationMessage(code: number | null): string {
  if (code === 1) return GEOLOCATION_MESSAGES.denied;
  if (code === 3) return GEOLOCATION_MESSAGES.timeout;
  if (code === null) return GEOLOCATION_MESSAGES.unsupported;
  return GEOLOCATION_MESSAGES.unavailable;
}

export class MyLocationControl implements IControl {
  private container: HTMLDivElement | null = null;
  private message: HTMLDivElement | null = null;
  private marker: Marker | null = null;
  private map: MaplibreMap | null = null;

  onAdd(map: MaplibreMap): HTMLElement {
    this.map = map;
    const container = document.createElement('div');
    container.className = 'maplibregl-ctrl maplibregl-ctrl-group my-location';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'my-location__button';
    button.setAttribute('aria-label', 'Show my location');
    button.title = 'Show my location';
    button.innerHTML =
      '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="4" fill="currentColor"/><circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 1v4M12 19v4M1 12h4M19 12h4" stroke="currentColor" stroke-width="2"/></svg>';
    button.addEventListener('click', () => this.locate(button));
    container.append(button);
    this.container = container;
    return container;
  }

  onRemove(): void {
    this.container?.remove();
    this.message?.remove();
    this.marker?.remove();
    this.container = this.message = null;
    this.marker = null;
    this.map = null;
  }

  private locate(button: HTMLButtonElement): void {
    this.say(null);
    if (!('geolocation' in navigator)) return this.say(geolocationMessage(null));
    button.setAttribute('aria-busy', 'true');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        button.removeAttribute('aria-busy');
        const map = this.map;
        if (map === null) return;
        const at: [number, number] = [coords.longitude, coords.latitude];
        if (this.marker === null) {
          const dot = document.createElement('div');
          dot.className = 'my-location__dot';
          dot.setAttribute('role', 'img');
          dot.setAttribute('aria-label', 'You are here');
          this.marker = new Marker({ element: dot });
        }
        this.marker.setLngLat(at).addTo(map);
        map.easeTo({ center: at, zoom: Math.max(map.getZoom(), MY_LOCATION_ZOOM) });
      },
      (error) => {
        button.removeAttribute('aria-busy');
        this.say(geolocationMessage(error.code));
      },
      { enableHighAccuracy: true, timeout: TIMEOUT_MS, maximumAge: 60_000 },
    );
  }

  /** Shows a message over the map (null removes it); it stays until closed or the next try. */
  private say(text: string | null): void {
    this.message?.remove();
    this.message = null;
    const map = this.map;
    if (text === null || map === null) return;
    const message = document.createElement('div');
    message.className = 'my-location__message';
    message.setAttribute('role', 'alert');
    const words = document.createElement('p');
    words.textContent = text;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'my-location__close';
    close.setAttribute('aria-label', 'Dismiss');
    close.textContent = '×';
    close.addEventListener('click', () => this.say(null));
    message.append(words, close);
    map.getContainer().append(message);
    this.message = message;
  }
}
