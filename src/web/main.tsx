import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installBrokenImageFallback } from './shell/brokenImages';
import './styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('XPoint: the page has no #root element.');

installBrokenImageFallback();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
