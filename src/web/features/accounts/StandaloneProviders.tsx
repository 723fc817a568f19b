import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, useState, type ReactNode } from 'react';
import { createQueryClient } from '../../lib/query';
import { SessionProvider } from './SessionProvider';
import { SessionContext } from './session';

/**
 * The query cache and the session for a piece that may stand alone: the server-rendered full-screen
 * page hydrates without the app's providers, so its islands that read the store or the viewer (the
 * posts block, the owner's requests to consult) bring their own there and use the app's inside it.
 */
export function StandaloneProviders({ children }: { children: ReactNode }) {
  const client = useContext(QueryClientContext);
  const session = useContext(SessionContext);
  const [ownClient] = useState(() => (client === undefined ? createQueryClient() : null));
  let tree = children;
  if (session === null) tree = <SessionProvider>{tree}</SessionProvider>;
  if (ownClient !== null) tree = <QueryClientProvider client={ownClient}>{tree}</QueryClientProvider>;
  return <>{tree}</>;
}
