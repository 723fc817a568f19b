import noImageUrl from './no-image.svg?url';

/** The local picture shown for any image that fails to load (§8 "broken images fall back"). */
export const NO_IMAGE_URL = noImageUrl;

/**
 * One capturing listener for the whole document: an `<img>` whose source fails shows the 'no image'
 * picture instead, once (a failing fallback must not loop). Returns the uninstaller.
 */
export function installBrokenImageFallback(root: Document = document): () => void {
  const onError = (event: Event) => {
    const image = event.target;
    if (!(image instanceof HTMLImageElement) || image.dataset.broken === 'true') return;
    image.dataset.broken = 'true';
    image.removeAttribute('srcset');
    image.src = NO_IMAGE_URL;
  };
  root.addEventListener('error', onError, true);
  return () => root.removeEventListener('error', onError, true);
}
