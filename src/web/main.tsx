// the tokens and the reset, then the shared pieces and the frame, before any feature's stylesheet: the
// features' rules come later in the cascade and so refine them
import './styles.css';
import './ui/ui.css';
import './shell/shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installBrokenImageFallback } from './shell/brokenImages';
import { startWebVitals } from './lib/startVitals';

const container = document.getElementById('root');
if (container === null) throw new Error('XPoint: the page has no #root element.');

installBrokenImageFallback();
// real-user timings (issue 23), reported when the page is hidden
startWebVitals();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
