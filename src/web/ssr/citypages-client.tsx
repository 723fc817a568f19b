// the tokens, the reset and the shared pieces first; the pages' own styles come with their components
import '../styles.css';
import '../ui/ui.css';
import '../features/citypage/citypage.css';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { PAGE_DATA_ELEMENT_ID } from '../../shared/details/page';
import type { CityPagesData } from '../../shared/citypages/page';
import { installBrokenImageFallback } from '../shell/brokenImages';
import { CityPagesRoot } from '../features/citypage/CityPagesRoot';
import { startWebVitals } from '../lib/startVitals';

// The city and event pages' own entry (citypage.html): it takes over what the server rendered,
// without the map and the rest of the app.
const container = document.getElementById('root');
if (container === null) throw new Error('XPoint: the page has no #root element.');
const script = document.getElementById(PAGE_DATA_ELEMENT_ID);
const data = JSON.parse(script?.textContent ?? 'null') as CityPagesData | null;
if (data === null) throw new Error('XPoint: the page has no data to hydrate from.');
installBrokenImageFallback();
// real-user timings (issue 23), reported when the page is hidden
startWebVitals();
// The page is painted and readable already, so hydration is a transition, done in slices of a few
// milliseconds that let the browser answer a tap between them (as the full-screen page does).
startTransition(() => {
  hydrateRoot(container, <CityPagesRoot data={data} />, {
    onRecoverableError: (error) => console.warn('XPoint: the page was rendered again', error),
  });
});
