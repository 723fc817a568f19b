/**
 * What a visitor typed into the server's first paint before the app replaced it (issue 21 item 8: no
 * keystroke is lost, whatever has loaded): read once before the app's first render, given to the
 * search form as its first value, then forgotten.
 */
export interface FirstPaintInput {
  keywords: string;
  supertype: string;
  focused: boolean;
}

let carried: FirstPaintInput | null = null;
/** Whether the app's first panel takes the place of a painted one (and so does not slide in again). */
let paintedPanel = false;

/** Reads the first paint's search form inside `root`, if it has one. */
export function keepFirstPaintInput(root: HTMLElement): void {
  paintedPanel = root.querySelector('.side-panel') !== null;
  const input = root.querySelector<HTMLInputElement>('input.search-form__input');
  const select = root.querySelector<HTMLSelectElement>('select.search-form__supertype');
  if (input === null) return;
  carried = {
    keywords: input.value,
    supertype: select?.value ?? '',
    focused: root.ownerDocument.activeElement === input,
  };
}

/** The carried input, until `forgetFirstPaintInput`: the same on every render of the first mount. */
export function firstPaintInput(): FirstPaintInput | null {
  return carried;
}

export function forgetFirstPaintInput(): void {
  carried = null;
}

/** Whether the next panel to mount replaces the painted one: it then shows still, where it already is. */
export function paintedPanelPending(): boolean {
  return paintedPanel;
}

export function forgetPaintedPanel(): void {
  paintedPanel = false;
}
