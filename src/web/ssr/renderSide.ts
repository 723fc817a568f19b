import { createContext } from 'react';

/**
 * Which side renders a server-rendered page's tree (issue 20, performance): 'server' while the server
 * writes its HTML, 'client' while the browser hydrates it, null for a tree rendered only in the
 * browser (the app). A part that is static for this reader renders its markup on the server and, on the
 * client, keeps that markup as it is instead of hydrating it (see OwnerSite).
 */
export type RenderSide = 'server' | 'client' | null;

export const RenderSideContext = createContext<RenderSide>(null);
