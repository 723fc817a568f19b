import type { FallbackProps } from 'react-error-boundary';
import { ErrorPanel } from './SidePanel';

/** What the screen says when the failure is the page's own (a bug), in the spec's error panel (§8). */
export const SCREEN_FAILED_MESSAGE = 'This page could not be drawn. Reloading it usually helps.';

/**
 * The app's last resort (App.tsx's error boundary): a screen that throws while it renders shows the
 * spec's error panel with a way on, never a blank page. React unmounts the whole tree on an error no
 * boundary catches; the router's own boundary did this before, in its developer's words.
 */
export function ScreenFailed(_props: FallbackProps) {
  return (
    <main className="app-failed">
      <ErrorPanel message={SCREEN_FAILED_MESSAGE}>
        <p className="app-failed__actions">
          <button
            type="button"
            className="xp-button xp-button--primary"
            onClick={() => window.location.reload()}
          >
            Reload
          </button>
          <a className="xp-button" href="/maps">
            Open the map
          </a>
        </p>
      </ErrorPanel>
    </main>
  );
}
