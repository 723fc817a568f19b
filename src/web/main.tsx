// the tokens and the reset, then the shared pieces and the frame, before any feature's stylesheet: the
// features' rules come later in the cascade and so refine them
import './styles.css';
import './ui/ui.css';
import './shell/shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// a point's level and a search's results, which the server may paint first (issue 23): their styles
// come with the first screen's
import './features/details/details.css';
import './features/search/search.css';
import { App, seedAnswer } from './app/App';
import { installBrokenImageFallback } from './shell/brokenImages';
import { startWebVitals } from './lib/startVitals';
import { startServiceWorker } from './pwa/start';
import { takeOverFirstPaint } from './ssr/takeOver';

const container = document.getElementById('root');
if (container === null) throw new Error('XPoint: the page has no #root element.');

installBrokenImageFallback();
// real-user timings (issue 23), reported when the page is hidden
startWebVitals();
// installable, and the last area seen when the network goes (issue 23)
startServiceWorker();

// a screen the server painted first is replaced by the same screen, drawn from the same answer, once
// its first picture is on the screen
void takeOverFirstPaint(container, seedAnswer).then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
