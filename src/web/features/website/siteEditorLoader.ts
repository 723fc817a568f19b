import type * as OwnerSiteEditorModule from './OwnerSiteEditor';

/**
 * The site editor (./OwnerSiteEditor) is its own chunk: loaded for those who control the point, by
 * the server's renderer at start, and by the full-screen page before it hydrates a controller's page
 * (so both render the same tree, with no loading state in between).
 */
type EditorModule = typeof OwnerSiteEditorModule;

let loaded: EditorModule | null = null;
let loading: Promise<EditorModule> | null = null;

export function loadSiteEditor(): Promise<EditorModule> {
  loading ??= import('./OwnerSiteEditor').then((module) => (loaded = module));
  return loading;
}

/** The editor module once loadSiteEditor has resolved; null before. */
export function loadedSiteEditor(): EditorModule | null {
  return loaded;
}
