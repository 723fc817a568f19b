import type { MouseEvent } from 'react';

/**
 * A link's click handler that opens a page of the app without loading the document again (the map
 * keeps its place), for a plain left click only: a click asking for a new tab or window keeps the
 * browser's meaning. Without `open` (a page the server rendered, no app around it) the link is
 * simply followed.
 */
export function inAppLink(href: string, open: ((to: string) => void) | undefined) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (!open || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    open(href);
  };
}
