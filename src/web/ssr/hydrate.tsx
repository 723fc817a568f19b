import { hydrateRoot } from 'react-dom/client';
import { PAGE_DATA_ELEMENT_ID, type FullScreenPageData } from '../../shared/details/page';
import { FullScreenRoot } from './FullScreenRoot';

/** Takes over the server-rendered full-screen page in `container`, from the data the page carries. */
export function hydrateFullScreen(container: HTMLElement): void {
  const script = document.getElementById(PAGE_DATA_ELEMENT_ID);
  const data = JSON.parse(script?.textContent ?? 'null') as FullScreenPageData | null;
  if (data === null) throw new Error('XPoint: the full-screen page has no data to hydrate from.');
  hydrateRoot(container, <FullScreenRoot data={data} />, {
    onRecoverableError: (error) => console.warn('XPoint: the full-screen page was rendered again', error),
  });
}
