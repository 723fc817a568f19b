import { useId, useState } from 'react';
import { LAYER_GROUPS, SUPERTYPE_COLORS, type LayerGroup } from '../../shared/map/contract';
import { LAYER_GROUP_NAMES } from './layerVisibility';

export interface LayerTogglesProps {
  hidden: ReadonlySet<LayerGroup>;
  onToggle(group: LayerGroup, visible: boolean): void;
}

/**
 * One checkbox per layer group (§9 "layer groups exist per supertype"), behind a compact "Layers"
 * button so it fits a phone. Plain checkboxes: labelled, keyboard- and screen-reader-usable as is.
 */
export function LayerToggles({ hidden, onToggle }: LayerTogglesProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="map-layers">
      <fieldset id={panelId} className="map-layers__panel" hidden={!open}>
        <legend className="map-layers__legend">Show on the map</legend>
        {LAYER_GROUPS.map((group) => (
          <label key={group} className="map-layers__item">
            <input
              type="checkbox"
              name="layer-group"
              value={group}
              checked={!hidden.has(group)}
              onChange={(event) => onToggle(group, event.currentTarget.checked)}
            />
            <span
              className="map-layers__swatch"
              style={{ backgroundColor: SUPERTYPE_COLORS[group] }}
              aria-hidden="true"
            />
            {LAYER_GROUP_NAMES[group]}
          </label>
        ))}
      </fieldset>
      <button
        type="button"
        className="map-layers__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Layers{hidden.size > 0 ? ` (${LAYER_GROUPS.length - hidden.size}/${LAYER_GROUPS.length})` : ''}
      </button>
    </div>
  );
}
