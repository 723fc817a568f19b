import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Social §8: a website call's failure is shown in the editor's error area for a while (3 s; 30 s
 * for a section's switch), then the area empties by itself.
 */
export function useErrorArea(): { message: string | null; show(message: string, forMs: number): void } {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const show = useCallback((text: string, forMs: number) => {
    if (timer.current) clearTimeout(timer.current);
    setMessage(text);
    timer.current = setTimeout(() => setMessage(null), forMs);
  }, []);
  return { message, show };
}

export function ErrorArea({ message }: { message: string | null }) {
  // always in the page (empty, it takes no room), so a screen reader hears what is put in it
  return (
    <p className="website-error" role="alert">
      {message ?? ''}
    </p>
  );
}
