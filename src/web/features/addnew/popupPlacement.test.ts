import { describe, expect, it } from 'vitest';
import { POPUP_MAX_HEIGHT_PX, popupPlacement } from './popupPlacement';

const popup = { width: 340, offset: 25 };
// a 1280 × 800 map with the side panel covering its left 392 px
const desktop = { left: 392, top: 0, right: 1280, bottom: 800 };

describe('the form popup beside the marker', () => {
  it('goes to the right of a marker in the middle, centred on it', () => {
    const placed = popupPlacement({ x: 836, y: 450 }, desktop, popup);
    expect(placed.anchor).toBe('left');
    // centred on y = 450 between the top bar (80) and the bottom edge (784): 668 px, of which it needs 640
    expect(placed.maxHeight).toBe(POPUP_MAX_HEIGHT_PX);
    expect(popupPlacement({ x: 836, y: 400 }, { ...desktop, bottom: 700 }, popup)).toEqual({
      anchor: 'left',
      maxHeight: 2 * (684 - 400),
    });
  });

  it('goes to the left of a marker near the right edge, never under the panel', () => {
    expect(popupPlacement({ x: 1100, y: 450 }, desktop, popup).anchor).toBe('right');
    // no room on either side: above or below, where there is more room
    const narrow = { left: 392, top: 0, right: 900, bottom: 800 };
    expect(popupPlacement({ x: 640, y: 200 }, narrow, popup)).toEqual({ anchor: 'top', maxHeight: 559 });
    expect(popupPlacement({ x: 640, y: 700 }, narrow, popup)).toEqual({ anchor: 'bottom', maxHeight: 595 });
  });

  it('hangs down from a marker near the top and up from one near the bottom', () => {
    expect(popupPlacement({ x: 600, y: 120 }, desktop, popup).anchor).toBe('top-left');
    expect(popupPlacement({ x: 600, y: 760 }, desktop, popup).anchor).toBe('bottom-left');
  });

  it('never asks for more height than the form needs', () => {
    const tall = { left: 0, top: 0, right: 1920, bottom: 2000 };
    expect(popupPlacement({ x: 900, y: 1000 }, tall, popup).maxHeight).toBe(POPUP_MAX_HEIGHT_PX);
  });
});
