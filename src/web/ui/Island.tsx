import { Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { useOnScreen } from '../lib/onScreen';

/**
 * How close to the screen a section comes before its island loads: about a phone screen ahead, so
 * what a person scrolls to is there when they arrive.
 */
const ISLAND_MARGIN = '800px';

const noSubscription = () => () => undefined;
const inTheBrowser = () => true;
const onTheServer = () => false;

/**
 * A part of a server-rendered page that the browser takes over with a lazily loaded component
 * (`children`, usually a `lazy()` one) once the page is hydrated and the part comes near the screen.
 * The server and the hydrating render both draw `placeholder`, so hydration matches; below the fold
 * on a phone the part's code, data and the work of running them wait until someone scrolls there,
 * instead of competing with the first screen (issue 20: the full-screen page's total blocking time).
 */
export function Island({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const inBrowser = useSyncExternalStore(noSubscription, inTheBrowser, onTheServer);
  const [observed, near] = useOnScreen<HTMLDivElement>(inBrowser, { margin: ISLAND_MARGIN, once: true });
  return (
    <div ref={observed}>
      {inBrowser && near ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}
    </div>
  );
}
