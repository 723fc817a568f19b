import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { PAGE_DATA_ELEMENT_ID, type FullScreenPageData } from '../../shared/details/page';
import { loadSiteEditor } from '../features/website/siteEditorLoader';
import { FullScreenRoot } from './FullScreenRoot';

/**
 * Takes over the server-rendered full-screen page in `container`, from the data the page carries.
 *
 * The page is already painted and readable, so hydration is a transition: React does it in slices of
 * a few milliseconds and yields to the browser between them, instead of one long task that holds the
 * main thread (Lighthouse's total blocking time; a tap on a phone waiting for it). For those who
 * control the point the site editor is loaded first, since the server rendered the page with it.
 */
export async function hydrateFullScreen(container: HTMLElement): Promise<void> {
  const script = document.getElementById(PAGE_DATA_ELEMENT_ID);
  const data = JSON.parse(script?.textContent ?? 'null') as FullScreenPageData | null;
  if (data === null) throw new Error('XPoint: the full-screen page has no data to hydrate from.');
  if (data.website?.editable) await loadSiteEditor();
  startTransition(() => {
    hydrateRoot(container, <FullScreenRoot data={data} side="client" />, {
      onRecoverableError: (error) => console.warn('XPoint: the full-screen page was rendered again', error),
    });
  });
}
