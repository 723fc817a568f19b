// the tokens, the reset and the shared pieces first; the page's own styles come with FullScreenPoint
import '../styles.css';
import '../ui/ui.css';
import { installBrokenImageFallback } from '../shell/brokenImages';
import { hydrateFullScreen } from './hydrate';

// The full-screen point page's own entry (fullscreen.html): it hydrates what the server rendered,
// without the map and the rest of the app.
const container = document.getElementById('root');
if (container === null) throw new Error('XPoint: the page has no #root element.');
installBrokenImageFallback();
hydrateFullScreen(container);
// the connection pinger (issue 19), loaded after hydration, off the first paint's path
import('../features/pinger/mount')
  .then(({ mountConnectionPinger }) => mountConnectionPinger())
  .catch((error: unknown) => console.warn('XPoint: could not start the connection pinger', error));
