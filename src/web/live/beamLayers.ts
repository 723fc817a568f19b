import { SELECTED_LAYERS } from '../map/selectedPlace';
import type { ExpressionSpecification, GeoJSONSource, Map as MaplibreMap } from 'maplibre-gl';
import type { Feature, FeatureCollection, Point } from 'geojson';
import type { BeamKindName, DrawnBeam } from './beamBoard';

/**
 * Beam markers (map-and-search §4 "map beams"): drawn by MapLibre from one GeoJSON source, never
 * DOM markers. A ring in its kind's colour around each beaming point, and a halo: the beams of the
 * moment (global beams, chats) pulse out of it, animated by one requestAnimationFrame loop that
 * sets the halo layer's paint properties (one expression per frame, whatever the number of beams);
 * steady beams (dynamic points, events) keep a still halo, so the map can go idle and does not
 * repaint for ever. Each beam's fade is a feature state. Survives style reloads: `install` runs
 * after every 'style.load'.
 */

export const BEAM_SOURCE = 'live-beams';
export const BEAM_LAYERS = { pulse: 'live-beams-pulse', dot: 'live-beams-dot' } as const;

export const BEAM_COLOURS: Readonly<Record<BeamKindName, string>> = {
  hot: '#f2600c',
  current: '#1f9d55',
  upcoming: '#2b6fd6',
  chat: '#8e44d9',
  helprequest: '#d9a400',
  urgent: '#e5243b',
  incident: '#5c1a33',
};

/** One pulse, in ms; beams are spread over it by a per-point phase so they do not blink together. */
const PULSE_MS = 1_600;
/** Where a steady beam's halo stays, on the pulse's scale. */
const STEADY_HALO = 0.3;
/** Frames are drawn at most this often: smooth enough, and half the work of 60 fps. */
const FRAME_MS = 33;

const colourByKind: ExpressionSpecification = [
  'match',
  ['get', 'kind'],
  ...Object.entries(BEAM_COLOURS).flat(),
  BEAM_COLOURS.hot,
] as unknown as ExpressionSpecification;
const fade: ExpressionSpecification = ['coalesce', ['feature-state', 'fade'], 1];

/** The pulse layer's paint properties that change from frame to frame. */
const ANIMATED = ['circle-radius', 'circle-opacity', 'circle-stroke-opacity'] as const;

/** A stable phase in [0, 1) from a point id. */
function phaseOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return (hash % 1000) / 1000;
}

function collection(beams: readonly DrawnBeam[]): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: beams.map((beam): Feature<Point> => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [beam.lng, beam.lat] },
      properties: {
        id: beam.id,
        kind: beam.kind,
        flags: beam.flags,
        emphasis: beam.emphasis,
        title: beam.title,
        pulsing: beam.pulsing,
        phase: phaseOf(beam.id),
      },
    })),
  };
}

/**
 * The pulse's progress in [0, 1) for a beam at time t, phase-shifted so beams pulse apart; a steady
 * beam stays at a still halo.
 */
function progress(t: number): ExpressionSpecification {
  return ['case', ['get', 'pulsing'], ['%', ['+', t, ['get', 'phase']], 1], STEADY_HALO];
}

export class BeamLayers {
  private beams: DrawnBeam[] = [];
  private frame: number | null = null;
  private lastFrame = 0;
  private fading = new Set<string>();
  private signature = '';
  private readonly onStyleLoad = () => this.install();

  constructor(
    private readonly map: MaplibreMap,
    /** called each frame with the time; answers the beams to draw when they changed, else null. */
    private readonly tick: (now: number) => DrawnBeam[] | null,
  ) {
    map.on('style.load', this.onStyleLoad);
    this.install();
  }

  /** Adds the source and layers when the current style lacks them. */
  install(): void {
    const map = this.map;
    const source = map.getSource(BEAM_SOURCE) as GeoJSONSource | undefined;
    if (source !== undefined) {
      source.setData(collection(this.beams));
      return;
    }
    try {
      map.addSource(BEAM_SOURCE, { type: 'geojson', data: collection(this.beams), promoteId: 'id' });
    } catch {
      // the style is still being parsed: its 'style.load' installs the layers
      return;
    }
    this.fading.clear();
    // beneath the opened place's mark when it is there: a beam never hides the place the panel shows
    const below = map.getLayer(SELECTED_LAYERS.halo) === undefined ? undefined : SELECTED_LAYERS.halo;
    map.addLayer(
      {
        id: BEAM_LAYERS.pulse,
        type: 'circle',
        source: BEAM_SOURCE,
        paint: this.pulsePaint(0),
      },
      below,
    );
    map.addLayer(
      {
        id: BEAM_LAYERS.dot,
        type: 'circle',
        source: BEAM_SOURCE,
        // a ring that frames the point's own badge rather than covering it
        paint: {
          'circle-radius': ['case', ['get', 'emphasis'], 15, 12],
          'circle-color': colourByKind,
          'circle-opacity': ['*', fade, 0.15],
          'circle-stroke-color': colourByKind,
          'circle-stroke-width': ['case', ['get', 'emphasis'], 4, 3],
          'circle-stroke-opacity': fade,
        },
      },
      below,
    );
    this.wake();
  }

  private pulsePaint(t: number) {
    const p = progress(t);
    return {
      'circle-radius': [
        '+',
        ['case', ['get', 'emphasis'], 15, 12],
        ['*', ['case', ['get', 'emphasis'], 28, 20], p],
      ] as ExpressionSpecification,
      'circle-color': colourByKind,
      'circle-opacity': ['*', fade, ['*', 0.35, ['-', 1, p]]] as ExpressionSpecification,
      'circle-stroke-color': colourByKind,
      'circle-stroke-width': 2,
      'circle-stroke-opacity': ['*', fade, ['-', 1, p]] as ExpressionSpecification,
    };
  }

  /** Draws these beams (their fades follow on the next frames). */
  show(beams: DrawnBeam[]): void {
    this.beams = beams;
    // only the fades changed (a beam fading out): feature states, no new data for the workers
    const signature = beams
      .map((b) => `${b.id}|${b.kind}|${b.lng}|${b.lat}|${b.emphasis ? 1 : 0}|${b.flags}`)
      .join(';');
    if (signature !== this.signature) {
      this.signature = signature;
      const source = this.map.getSource(BEAM_SOURCE) as GeoJSONSource | undefined;
      source?.setData(collection(beams));
    }
    this.applyFades();
    this.wake();
  }

  /** The id of the beam within `radius` px of a canvas point, if any. */
  beamAt(point: { x: number; y: number }, radius: number): string | null {
    if (this.beams.length === 0 || this.map.getLayer(BEAM_LAYERS.dot) === undefined) return null;
    const hits = this.map.queryRenderedFeatures(
      [
        [point.x - radius, point.y - radius],
        [point.x + radius, point.y + radius],
      ],
      { layers: [BEAM_LAYERS.dot] },
    );
    const id = hits[0]?.properties?.id;
    return typeof id === 'string' ? id : null;
  }

  private applyFades(): void {
    const now = new Set<string>();
    for (const beam of this.beams) {
      if (beam.opacity >= 1 && !this.fading.has(beam.id)) continue;
      if (beam.opacity < 1) now.add(beam.id);
      this.map.setFeatureState({ source: BEAM_SOURCE, id: beam.id }, { fade: beam.opacity });
    }
    this.fading = now;
  }

  private wake(): void {
    if (this.frame !== null || typeof requestAnimationFrame !== 'function') return;
    this.frame = requestAnimationFrame(this.step);
  }

  private readonly step = (time: number): void => {
    this.frame = null;
    if (time - this.lastFrame >= FRAME_MS) {
      this.lastFrame = time;
      const next = this.tick(Date.now());
      if (next !== null) this.show(next);
      if (this.map.getLayer(BEAM_LAYERS.pulse) !== undefined && this.pulsing()) {
        const paint = this.pulsePaint((time % PULSE_MS) / PULSE_MS);
        for (const name of ANIMATED) this.map.setPaintProperty(BEAM_LAYERS.pulse, name, paint[name]);
      }
    }
    // nothing pulses or fades: the loop sleeps until beams come (show() wakes it)
    if (this.pulsing()) this.wake();
  };

  private pulsing(): boolean {
    return this.beams.some((beam) => beam.pulsing);
  }

  remove(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    this.map.off('style.load', this.onStyleLoad);
    for (const id of Object.values(BEAM_LAYERS)) if (this.map.getLayer(id)) this.map.removeLayer(id);
    if (this.map.getSource(BEAM_SOURCE)) this.map.removeSource(BEAM_SOURCE);
  }
}
