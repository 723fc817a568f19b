import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { onRealtimeSocket, realtimeSocketState } from '../../live/socketState';
import { ConnectionPinger as Pinger, type ConnectionSnapshot } from './connection';
import { intervalsFromSetting, PING_INTERVALS_KEY, type PingIntervals } from './intervals';
import { armSounds, playSound, type PingerSound } from './sounds';
import { pingServer } from './transport';
import './pinger.css';

/** Social §8's texts. */
export const CONNECTION_LOST = 'Internet Connection lost or server is not responding!';
export const CONNECTION_RESTORED = 'Internet Connection restored!';
/** How long the "restored" notice stays. */
const RESTORED_NOTICE_MS = 6_000;

/** The intervals of this browser: §9's, or the stored setting's when it is allowed (intervals.ts). */
function browserIntervals(): PingIntervals {
  let setting: string | null = null;
  try {
    setting = window.localStorage.getItem(PING_INTERVALS_KEY);
  } catch {
    // storage blocked: the defaults
  }
  const { intervals, refused } = intervalsFromSetting(setting);
  if (refused !== undefined) console.warn(`XPoint: ${PING_INTERVALS_KEY} refused: ${refused}`);
  return intervals;
}

const noChanges = () => () => {};
const isBrowser = () => true;
const isServer = () => false;

/** What the header's indicator says: the pings first, then the live socket. */
function indicatorOf(snapshot: ConnectionSnapshot): { mark: 'ok' | 'off' | 'error'; label: string } {
  if (snapshot.state === 'lost') return { mark: 'error', label: 'Connection lost' };
  if (snapshot.socket === 'closed') return { mark: 'off', label: 'Connected; live updates are off' };
  return { mark: 'ok', label: 'Connected' };
}

/**
 * The connection pinger (social §4, §7, §8, §9), mounted once per page: pings the server, shows the
 * header's connection indicator (flashing when marked error), the lost-connection banner with the
 * server's text or the network error as its detail, and the "restored" notice, with their sounds.
 */
export function ConnectionPinger({
  topBar = true,
}: {
  /** false on a page without the app's top bar (the full-screen page): no indicator, banners at the top. */
  topBar?: boolean;
}): ReactNode {
  const [pinger] = useState(() => new Pinger({ ping: pingServer, intervals: browserIntervals() }));
  const snapshot = useSyncExternalStore(pinger.subscribe, pinger.getSnapshot, pinger.getSnapshot);
  const [restoredShown, setRestoredShown] = useState(false);
  const [lastSound, setLastSound] = useState<PingerSound | null>(null);
  // the banners' portal needs the document: false in a server render and in the hydrating pass
  const mounted = useSyncExternalStore(noChanges, isBrowser, isServer);

  useEffect(() => {
    // each transition once: its sound, and the "restored" notice for a few seconds
    let seen = pinger.getSnapshot().change?.count ?? 0;
    let hideRestored: ReturnType<typeof setTimeout> | undefined;
    const stopHearing = pinger.subscribe(() => {
      const { change } = pinger.getSnapshot();
      if (change === null || change.count === seen) return;
      seen = change.count;
      const sound: PingerSound = change.kind === 'lost' ? 'error' : 'success';
      if (playSound(sound)) setLastSound(sound);
      clearTimeout(hideRestored);
      setRestoredShown(change.kind === 'restored');
      if (change.kind === 'restored')
        hideRestored = setTimeout(() => setRestoredShown(false), RESTORED_NOTICE_MS);
    });
    pinger.start();
    const offline = () => pinger.browserOffline();
    const online = () => pinger.browserOnline();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    if (!navigator.onLine) pinger.browserOffline();
    const socket = realtimeSocketState();
    if (socket !== null) pinger.socketChanged(socket);
    const stopSocket = onRealtimeSocket((state) => pinger.socketChanged(state));
    const stopArming = armSounds();
    return () => {
      pinger.stop();
      stopHearing();
      clearTimeout(hideRestored);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      stopSocket();
      stopArming();
    };
  }, [pinger]);

  const change = snapshot.change;
  const indicator = indicatorOf(snapshot);
  const banners = (
    <div className={topBar ? 'pinger-banners' : 'pinger-banners pinger-banners--no-bar'}>
      {snapshot.state === 'lost' && (
        <div className="pinger-banner pinger-banner--lost" role="alert">
          <strong className="pinger-banner__title">{CONNECTION_LOST}</strong>
          {snapshot.detail !== '' && <span className="pinger-banner__detail">{snapshot.detail}</span>}
        </div>
      )}
      <div role="status">
        {restoredShown && snapshot.state === 'ok' && (
          <div className="pinger-banner pinger-banner--restored">
            <strong className="pinger-banner__title">{CONNECTION_RESTORED}</strong>
          </div>
        )}
      </div>
    </div>
  );
  return (
    <>
      {topBar && (
        <span
          className={`pinger-indicator pinger-indicator--${indicator.mark}`}
          // a new key restarts the flash on every loss
          key={indicator.mark === 'error' ? `error-${change?.count ?? 0}` : indicator.mark}
          role="img"
          aria-label={indicator.label}
          title={indicator.label}
          data-connection={snapshot.state}
          data-last-sound={lastSound ?? undefined}
        />
      )}
      {/* on the body: the top bar is a stacking context under the side panel, the banners go over it */}
      {mounted && createPortal(banners, document.body)}
    </>
  );
}
