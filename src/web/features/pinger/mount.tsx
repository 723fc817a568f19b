import { createRoot } from 'react-dom/client';
import { ConnectionPinger } from './ConnectionPinger';

/**
 * The pinger on a page that is not the app shell (the server-rendered full-screen page): its own small
 * root beside the hydrated one, so the server's markup and hydration never include it. Loaded after
 * hydration, off the first paint's path.
 */
export function mountConnectionPinger(): void {
  const host = document.createElement('div');
  host.className = 'pinger-host';
  document.body.append(host);
  createRoot(host).render(<ConnectionPinger topBar={false} />);
}
