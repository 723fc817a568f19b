// the tokens, the reset and the shared pieces first; the page's own styles come with FullScreenPoint
import '../styles.css';
import '../ui/ui.css';
import { whenIdle } from '../lib/idle';
import { retryImport } from '../lib/retryImport';
import { installBrokenImageFallback } from '../shell/brokenImages';
import { hydrateFullScreen } from './hydrate';
import { startWebVitals } from '../lib/startVitals';

// The full-screen point page's own entry (fullscreen.html): it hydrates what the server rendered,
// without the map and the rest of the app.
const container = document.getElementById('root');
if (container === null) throw new Error('XPoint: the page has no #root element.');
installBrokenImageFallback();
// real-user timings (issue 23), reported when the page is hidden
startWebVitals();
hydrateFullScreen(container)
  // the connection pinger (issue 19), loaded after hydration once the browser is idle
  .then(() => whenIdle())
  .then(() => retryImport(() => import('../features/pinger/mount')))
  .then(({ mountConnectionPinger }) => mountConnectionPinger())
  .catch((error: unknown) => console.error('XPoint: could not take over the page', error));
