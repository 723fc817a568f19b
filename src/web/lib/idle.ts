/**
 * Resolves when the browser is next idle (requestIdleCallback), and at the latest after `timeoutMs`:
 * for work a page needs soon but not before it is interactive (joining a live topic, the connection
 * pinger), so it does not lengthen the tasks of hydration. Where the browser has no idle callback, on
 * the next turn of the event loop.
 */
export function whenIdle(timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });
}
