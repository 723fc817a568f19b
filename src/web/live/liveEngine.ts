import { Socket, type Channel } from 'phoenix';
import type { Map as MaplibreMap } from 'maplibre-gl';
import {
  BOUNDS_SEND_EVERY_MS,
  DEVICE_TOPIC_PREFIX,
  DYNAMIC_REFRESH_MS,
  EVENT_BEAMING_LIMIT,
  EVENT_BEAMING_REFRESH_MS,
  IQ_EVENT,
  SOCKET_PATH,
  type ActivityIq,
  type DynamicFeatureCollection,
  type EventBeamItem,
  type ChatActivityItem,
} from '../../shared/api/live';
import { CLICK_HIT_BOX_PX } from '../../shared/map/contract';
import { BeamBoard, FADE_MS, type BeamTarget, type DrawnBeam } from './beamBoard';
import { BeamLayers, BEAM_LAYERS } from './beamLayers';
import {
  DEVICE_ID_KEY,
  boundsChanged,
  chatBeamInput,
  deviceIdFrom,
  dynamicInput,
  eventBeamInput,
  eventBeamingInputs,
  pointBeamInput,
  sampleDynamic,
  type VisibleBounds,
} from './liveData';
import { keepWebSocketOnceOpen } from './reconnect';
import { reportRealtimeSocket } from './socketState';

/**
 * The live activity engine (map-and-search §4, §7, §8, §9): a plain class outside React. It keeps
 * the device channel (the official Phoenix client, its default backoffs), sends the map bounds on
 * join and every 10 s when they changed, polls dynamic points (100 ms, then 60 s) and event beaming
 * (30 s), refreshes both when the viewport changed (checked every second), flushes chat activity
 * every 3 s and draws everything as beams. Failures are logged and never break the map.
 */

const FIRST_DYNAMIC_MS = 100;
const VIEWPORT_CHECK_MS = 1_000;
const CHAT_FLUSH_MS = 3_000;
/** Push timeout of the bounds send (§9). */
const BOUNDS_TIMEOUT_MS = 10_000;
/** WebSocket not open within this: the client falls back to long-poll. */
const LONG_POLL_FALLBACK_MS = 2_500;

export interface LiveEngineOptions {
  map: MaplibreMap;
  /** opens a beam's point or event (router navigation). */
  open(route: string): void;
  /**
   * registers a map click handler, told the point id the click hit on the point layers (null: no
   * point and no cluster, '' a cluster); true claims the click.
   */
  claimClicks(handler: (point: { x: number; y: number }, underneath: string | null) => boolean): () => void;
  /** calls the listener whenever the map stops moving. */
  onMoveEnd(listener: () => void): () => void;
  /** the visible map bounds as the HTTP calls take them. */
  visibleBounds(): {
    southwest: { lat: number; lon: number };
    northeast: { lat: number; lon: number };
  } | null;
}

function readDeviceId(): string {
  const create = () =>
    typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(DEVICE_ID_KEY);
  } catch {
    // storage blocked: a device id for this page only
  }
  const { id, fresh } = deviceIdFrom(stored, create);
  if (fresh) {
    try {
      window.localStorage.setItem(DEVICE_ID_KEY, id);
    } catch {
      // not kept; the next page gets a new one
    }
  }
  return id;
}

function newIqId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export class LiveEngine {
  readonly deviceId = readDeviceId();
  private readonly board = new BeamBoard();
  private readonly layers: BeamLayers;
  private socket: Socket | null = null;
  private channel: Channel | null = null;
  private lastSentBounds: VisibleBounds | null = null;
  private chatQueue: ChatActivityItem[] = [];
  private shownPromos = new Set<string>();
  private dynamicCall: AbortController | null = null;
  private eventsCall: AbortController | null = null;
  private viewportChanged = false;
  private dirty = false;
  private readonly timers: ReturnType<typeof setTimeout>[] = [];
  private readonly cleanups: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly options: LiveEngineOptions) {
    this.layers = new BeamLayers(options.map, (now) => this.tick(now));
  }

  start(): void {
    const { map } = this.options;
    this.cleanups.push(
      this.options.claimClicks((point, underneath) => this.click(point, underneath)),
      this.options.onMoveEnd(() => {
        this.viewportChanged = true;
      }),
    );
    const enter = () => (map.getCanvas().style.cursor = 'pointer');
    const leave = () => (map.getCanvas().style.cursor = '');
    map.on('mouseenter', BEAM_LAYERS.dot, enter);
    map.on('mouseleave', BEAM_LAYERS.dot, leave);
    this.cleanups.push(() => {
      map.off('mouseenter', BEAM_LAYERS.dot, enter);
      map.off('mouseleave', BEAM_LAYERS.dot, leave);
    });

    this.connect();
    this.timers.push(
      setTimeout(() => this.refreshDynamic(), FIRST_DYNAMIC_MS),
      setInterval(() => this.refreshDynamic(), DYNAMIC_REFRESH_MS),
      setInterval(() => this.refreshEvents(), EVENT_BEAMING_REFRESH_MS),
      setInterval(() => this.sendBoundsIfChanged(), BOUNDS_SEND_EVERY_MS),
      setInterval(() => this.checkViewport(), VIEWPORT_CHECK_MS),
      setInterval(() => this.flushChat(), CHAT_FLUSH_MS),
    );
    this.refreshEvents();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const cleanup of this.cleanups) cleanup();
    this.dynamicCall?.abort();
    this.eventsCall?.abort();
    this.channel?.leave();
    this.socket?.disconnect();
    this.layers.remove();
    delete document.body.dataset.liveJoined;
  }

  // ---- realtime ----

  private connect(): void {
    const socket = new Socket(SOCKET_PATH, {
      params: { deviceId: this.deviceId },
      longPollFallbackMs: LONG_POLL_FALLBACK_MS,
    });
    socket.onError((error: unknown) => console.warn('XPoint live: socket error', error));
    // after a server restart, back on WebSocket rather than on long-poll for good
    keepWebSocketOnceOpen(socket);
    // the connection indicator shows the socket's state (features/pinger)
    socket.onOpen(() => reportRealtimeSocket('open'));
    socket.onClose(() => reportRealtimeSocket('closed'));
    const channel = socket.channel(`${DEVICE_TOPIC_PREFIX}${this.deviceId}`, {});
    channel.onError((reason: unknown) => {
      delete document.body.dataset.liveJoined;
      console.warn('XPoint live: device channel error', reason);
    });
    channel.on(IQ_EVENT, (iq: unknown) => this.receive(iq as ActivityIq));
    // 'ok' fires on the first join and again after every rejoin: the bounds go out each time
    channel
      .join()
      .receive('ok', () => {
        // for browser tests, like the map's data-map-ready: the device channel is joined
        document.body.dataset.liveJoined = 'true';
        this.lastSentBounds = null;
        this.sendBounds();
      })
      .receive('error', (reason: unknown) => console.warn('XPoint live: device join refused', reason))
      .receive('timeout', () => console.warn('XPoint live: networking issue, device join timed out'));
    socket.connect();
    this.socket = socket;
    this.channel = channel;
  }

  /** The map's bounds as the device channel takes them (unwrapped longitudes are accepted). */
  private channelBounds(): VisibleBounds {
    const bounds = this.options.map.getBounds();
    const round = (v: number) => Math.round(v * 1e6) / 1e6;
    const south = Math.max(-90, round(bounds.getSouth()));
    const north = Math.min(90, round(bounds.getNorth()));
    const span = bounds.getEast() - bounds.getWest();
    if (span >= 360) return { sw: { lat: south, lon: -180 }, ne: { lat: north, lon: 180 } };
    const west = ((((bounds.getWest() + 180) % 360) + 360) % 360) - 180;
    return { sw: { lat: south, lon: round(west) }, ne: { lat: north, lon: round(west + span) } };
  }

  private sendBounds(): void {
    const channel = this.channel;
    if (channel === null || this.stopped) return;
    const bounds = this.channelBounds();
    this.lastSentBounds = bounds;
    channel
      .push(
        IQ_EVENT,
        { id: newIqId(), type: 'set', map_state: { visible_bounds: bounds } },
        BOUNDS_TIMEOUT_MS,
      )
      .receive('error', (reason: unknown) => console.error('XPoint live: map bounds refused', reason))
      .receive('timeout', () => {
        // sent again on the next check
        this.lastSentBounds = null;
        console.warn('XPoint live: networking issue, the map bounds send timed out');
      });
  }

  private sendBoundsIfChanged(): void {
    if (this.channel?.state !== 'joined') return;
    if (boundsChanged(this.lastSentBounds, this.channelBounds())) this.sendBounds();
  }

  private receive(iq: ActivityIq): void {
    const now = Date.now();
    if ('xpoint_activity' in iq) this.board.add('globalbeam', pointBeamInput(iq.xpoint_activity.beam, now));
    else if ('event_activity' in iq)
      this.board.add('globalbeam', eventBeamInput(iq.event_activity.beam, now));
    else if ('map_activity' in iq) {
      this.chatQueue.push(iq.map_activity);
      return;
    } else return;
    this.redraw();
  }

  private flushChat(): void {
    if (this.chatQueue.length === 0) return;
    const now = Date.now();
    for (const item of this.chatQueue) this.board.add('chat', chatBeamInput(item, now));
    this.chatQueue = [];
    this.redraw();
  }

  // ---- HTTP feeds ----

  private checkViewport(): void {
    if (!this.viewportChanged) return;
    this.viewportChanged = false;
    this.refreshDynamic();
    this.refreshEvents();
  }

  private async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  private refreshDynamic(): void {
    const box = this.options.visibleBounds();
    if (box === null || this.stopped) return;
    this.dynamicCall?.abort();
    const call = new AbortController();
    this.dynamicCall = call;
    this.post<DynamicFeatureCollection>('/map/dynamic/bybbox', box, call.signal)
      .then((result) => {
        if (call.signal.aborted || this.stopped) return;
        const shown = sampleDynamic(result.features);
        this.board.replaceSource(
          'dynamic',
          shown.map(({ feature, top }) => dynamicInput(feature, top)),
        );
        this.countImpressions(shown.map(({ feature }) => feature.properties.impressionurl));
        this.redraw();
      })
      .catch((error: unknown) => {
        if (!call.signal.aborted) console.warn('XPoint live: dynamic points failed', error);
      });
  }

  private refreshEvents(): void {
    const box = this.options.visibleBounds();
    if (box === null || this.stopped) return;
    this.eventsCall?.abort();
    const call = new AbortController();
    this.eventsCall = call;
    const zoomlevel = Math.round(this.options.map.getZoom() * 100) / 100;
    this.post<{ features: EventBeamItem[] }>(
      '/event/rbeamingbybbox',
      { ...box, zoomlevel, limit: EVENT_BEAMING_LIMIT },
      call.signal,
    )
      .then((result) => {
        if (call.signal.aborted || this.stopped) return;
        this.board.replaceSource('event', eventBeamingInputs(result.features, Date.now()));
        this.redraw();
      })
      .catch((error: unknown) => {
        if (!call.signal.aborted) console.warn('XPoint live: event beaming failed', error);
      });
  }

  /** Promoted points newly shown count an impression (§7); errors are logged. */
  private countImpressions(urls: readonly (string | null)[]): void {
    const shown = new Set<string>();
    for (const url of urls) {
      if (url === null || !url.startsWith('/')) continue;
      shown.add(url);
      if (this.shownPromos.has(url)) continue;
      this.post(url, { deviceid: this.deviceId }).catch((error: unknown) =>
        console.warn('XPoint live: promo impression failed', error),
      );
    }
    this.shownPromos = shown;
  }

  // ---- drawing and clicks ----

  private redraw(): void {
    this.dirty = false;
    this.layers.show(this.board.drawn(Date.now()));
  }

  /** Each animation frame: new beams when something expired or is fading, else null. */
  private tick(now: number): DrawnBeam[] | null {
    const expired = this.board.expire(now);
    const next = this.board.nextExpiry(now);
    const fading = next !== null && next - now < FADE_MS;
    if (!expired && !fading && !this.dirty) return null;
    this.dirty = false;
    return this.board.drawn(now);
  }

  /**
   * A click on the map. A point or a cluster the point layers drew there opens as always (a promoted
   * point's beam counts the click first); a beam with nothing under it (an event, a point clustered
   * away) opens its point or event.
   */
  private click(point: { x: number; y: number }, underneath: string | null): boolean {
    if (underneath === '') return false;
    const id = underneath ?? this.layers.beamAt(point, CLICK_HIT_BOX_PX);
    if (id === null) return false;
    const target: BeamTarget | undefined = this.board
      .drawn(Date.now())
      .find((beam) => beam.id === id)?.target;
    if (target === undefined) return false;
    if (target.promoClickUrl?.startsWith('/') === true) {
      this.post(target.promoClickUrl, { deviceid: this.deviceId }).catch((error: unknown) =>
        console.warn('XPoint live: promo click failed', error),
      );
    }
    if (underneath !== null) return false;
    this.options.open(target.route);
    return true;
  }
}
