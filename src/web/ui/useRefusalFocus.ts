import { useEffect, useRef, useState } from 'react';

/**
 * A refused submission moves focus to the first field marked invalid, in the form's order, else to
 * the form's own message (`fallback`, a selector inside the form): one rule for the form's own
 * checks and the server's refusals. Call `refused()` after each refusal, once its errors are set.
 */
export function useRefusalFocus(fallback: string) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt === 0) return;
    const form = formRef.current;
    const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? form?.querySelector<HTMLElement>(fallback))?.focus();
  }, [attempt, fallback]);
  return { formRef, refused: () => setAttempt((n) => n + 1) };
}
