import { LAYER_GROUPS, isLayerGroup, type LayerGroup } from '../../shared/map/contract';

/** Which layer groups the visitor has hidden, remembered in localStorage across visits. */

const STORAGE_KEY = 'xpoint.map.hiddenGroups';

/** Human names of the layer groups, for the toggles and the cluster list. */
export const LAYER_GROUP_NAMES: Readonly<Record<LayerGroup, string>> = {
  business: 'Businesses',
  poi: 'Places of interest',
  virtualstore: 'Online stores',
  service: 'Services',
  experience: 'Experiences',
  rental: 'Rentals',
  helprequest: 'Help requests',
  incident: 'Incidents',
  event: 'Events',
  post: 'Posts',
};

export function loadHiddenGroups(): ReadonlySet<LayerGroup> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return new Set();
    return new Set(
      parsed.filter((value): value is LayerGroup => typeof value === 'string' && isLayerGroup(value)),
    );
  } catch {
    // storage blocked or a bad value: every group shows
    return new Set();
  }
}

export function saveHiddenGroups(hidden: ReadonlySet<LayerGroup>): void {
  try {
    window.localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify(LAYER_GROUPS.filter((group) => hidden.has(group))),
    );
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}
