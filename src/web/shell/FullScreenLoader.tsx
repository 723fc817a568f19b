import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

/** A full-screen loader gives up after this long (§9 names a timeout without its value). */
export const FULL_SCREEN_LOADER_TIMEOUT_MS = 30_000;

interface FullScreenLoaderApi {
  /** Covers the page until the promise settles (or the timeout passes); returns the promise. */
  run<T>(work: Promise<T>, label?: string): Promise<T>;
}

const LoaderContext = createContext<FullScreenLoaderApi | null>(null);

/**
 * The full-screen loader (§2, §4 "the form submits with a full-screen loader"): one for the page, so
 * two overlapping submissions never stack two covers. It is a modal status: the page under it is
 * inert until the work is done.
 */
export function FullScreenLoaderProvider({ children }: { children: ReactNode }) {
  const [label, setLabel] = useState<string | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const pending = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const finish = useCallback(() => {
    pending.current = Math.max(0, pending.current - 1);
    if (pending.current === 0) {
      if (timer.current !== null) clearTimeout(timer.current);
      setLabel(null);
    }
  }, []);

  const run = useCallback(
    <T,>(work: Promise<T>, text = 'Working…'): Promise<T> => {
      pending.current += 1;
      setLabel(text);
      setTimedOut(false);
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        pending.current = 0;
        setLabel(null);
        setTimedOut(true);
      }, FULL_SCREEN_LOADER_TIMEOUT_MS);
      return work.finally(finish);
    },
    [finish],
  );

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const api = useMemo(() => ({ run }), [run]);
  return (
    <LoaderContext.Provider value={api}>
      <div className="app-root" inert={label !== null}>
        {children}
      </div>
      {label !== null && (
        <div className="full-screen-loader" role="status" aria-live="assertive">
          <span className="spinner spinner--large" aria-hidden="true" />
          <span>{label}</span>
        </div>
      )}
      {timedOut && (
        <div className="toast" role="alert">
          This is taking longer than it should. Check your connection and try again.
          <button
            type="button"
            className="toast__close"
            aria-label="Dismiss"
            onClick={() => setTimedOut(false)}
          >
            ×
          </button>
        </div>
      )}
    </LoaderContext.Provider>
  );
}

export function useFullScreenLoader(): FullScreenLoaderApi {
  const api = useContext(LoaderContext);
  if (api === null) throw new Error('useFullScreenLoader needs a FullScreenLoaderProvider');
  return api;
}
