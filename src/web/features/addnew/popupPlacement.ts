/**
 * Where the form's popup goes around the marker (§9: 25 px from it) so that all of it is on screen,
 * beside the side panel and under the top bar: to the right of the marker when there is room, else
 * to its left, else above or below; vertically centred on it, or hanging down or up from it,
 * whichever leaves the form the most height. The form scrolls inside the height it gets.
 */
export type PopupAnchor =
  'left' | 'right' | 'top' | 'bottom' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

export interface PopupPlacement {
  anchor: PopupAnchor;
  /** the most the popup's content may be tall, px. */
  maxHeight: number;
}

/** Room kept free above the popup for the top bar and its buttons, px. */
export const POPUP_TOP_MARGIN_PX = 80;
/** Room kept free below and beside the popup (map controls, attribution), px. */
export const POPUP_EDGE_MARGIN_PX = 16;
/** The form never needs more height than this, px. */
export const POPUP_MAX_HEIGHT_PX = 640;

export function popupPlacement(
  marker: { x: number; y: number },
  area: { left: number; top: number; right: number; bottom: number },
  popup: { width: number; offset: number },
): PopupPlacement {
  const top = area.top + POPUP_TOP_MARGIN_PX;
  const bottom = area.bottom - POPUP_EDGE_MARGIN_PX;
  const room = popup.offset + popup.width + POPUP_EDGE_MARGIN_PX;
  const side = marker.x + room <= area.right ? 'left' : marker.x - room >= area.left ? 'right' : null;
  const above = marker.y - popup.offset - top;
  const below = bottom - marker.y - popup.offset;
  const cap = (height: number) => Math.max(0, Math.min(POPUP_MAX_HEIGHT_PX, Math.floor(height)));
  if (side === null) {
    return below >= above
      ? { anchor: 'top', maxHeight: cap(below) }
      : { anchor: 'bottom', maxHeight: cap(above) };
  }
  const centred = 2 * Math.min(marker.y - top, bottom - marker.y);
  const options: PopupPlacement[] = [
    { anchor: side, maxHeight: cap(centred) },
    { anchor: `top-${side}`, maxHeight: cap(bottom - marker.y - popup.offset / Math.SQRT2) },
    { anchor: `bottom-${side}`, maxHeight: cap(marker.y - popup.offset / Math.SQRT2 - top) },
  ];
  return options.reduce((best, option) => (option.maxHeight > best.maxHeight ? option : best));
}
