/**
 * The page's globals, as far as the functions the journeys hand to `page.evaluate` touch them. The
 * journeys compile without the DOM library (tsconfig.node.json), so a journey that reaches into the
 * page declares what it uses, from these types, at the top of its module:
 *
 *     declare const window: PageWindow;
 *     declare const document: PageDocument;
 *
 * (A module-level `declare`, not a global one: the server's code shares the node typecheck and must
 * not see a `window`.) A journey with globals of its own intersects them, `PageWindow & { … }`.
 */

/** A feature MapLibre rendered, as `queryRenderedFeatures` returns it. */
export interface PageFeature {
  geometry: unknown;
  sourceLayer?: string;
  properties: Record<string, unknown>;
}

/** The page's MapLibre map, which MapView exposes as `window.__xpointMap`. */
export interface PageMap {
  queryRenderedFeatures(options: { layers: string[] }): PageFeature[];
  getLayer(id: string): unknown;
  setLayoutProperty(id: string, name: string, value: unknown): void;
  getCanvas(): { getBoundingClientRect(): { left: number; top: number; width: number; height: number } };
  project(lngLat: [number, number]): { x: number; y: number };
  getCenter(): { lng: number; lat: number };
  getZoom(): number;
  jumpTo(options: { center: [number, number]; zoom: number }): void;
  loaded(): boolean;
  isMoving(): boolean;
  once(type: 'idle', listener: () => void): void;
}

export interface PageElement {
  tagName: string;
  textContent: string | null;
  classList: { contains(name: string): boolean };
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  dispatchEvent(event: unknown): boolean;
}

export interface PageImage extends PageElement {
  src: string;
  alt: string;
}

export interface PageWindow {
  __xpointMap?: PageMap;
  location: { hash: string };
  history: { length: number };
  localStorage: { setItem(key: string, value: string): void; removeItem(key: string): void };
}

export interface PageDocument {
  body: { className: string; append(node: PageElement): void };
  documentElement: { scrollWidth: number; scrollTop: number };
  activeElement: PageElement | null;
  title: string;
  cookie: string;
  createElement(tag: 'img'): PageImage;
  /** The element is whatever the selector names: say which, as the DOM's own typing lets you. */
  querySelector<E extends PageElement = PageElement>(selector: string): E | null;
  elementFromPoint(x: number, y: number): PageElement | null;
}
