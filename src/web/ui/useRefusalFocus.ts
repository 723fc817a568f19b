import { useEffect, useRef } from 'react';

/**
 * After a submission that did not go through, focus goes to the first field marked invalid, in the
 * form's order, else to the form's own message (`fallback`, a selector inside the form): one rule
 * for the form's own checks and the server's refusals. Keyed on react-hook-form's `submitCount`,
 * which moves on once the submission is over and its errors are set, so they are on the page.
 */
export function useRefusalFocus(fallback: string, submitCount: number) {
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (submitCount === 0) return;
    const form = formRef.current;
    const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? form?.querySelector<HTMLElement>(fallback))?.focus();
  }, [submitCount, fallback]);
  return formRef;
}
