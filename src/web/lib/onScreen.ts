import { useEffect, useState } from 'react';

export interface OnScreenOptions {
  /** how far outside the screen still counts (IntersectionObserver's rootMargin), e.g. '200px'. */
  margin: string;
  /** once shown, stays shown: for work done once (loading a section), not for a subscription. */
  once?: boolean;
}

const observable = () => typeof IntersectionObserver !== 'undefined';

/**
 * Whether the element is on screen (or within `margin` of it), and the ref that tells. Without
 * IntersectionObserver (old browsers) every enabled element counts as shown.
 */
export function useOnScreen<T extends Element>(
  enabled: boolean,
  { margin, once = false }: OnScreenOptions,
): [(element: T | null) => void, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [onScreen, setOnScreen] = useState(false);
  const settled = once && onScreen;
  useEffect(() => {
    if (!enabled || !element || !observable() || settled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const last = entries.at(-1);
        if (last) setOnScreen(last.isIntersecting);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      if (!once) setOnScreen(false);
    };
  }, [enabled, element, margin, once, settled]);
  return [setElement, observable() ? onScreen : enabled];
}
