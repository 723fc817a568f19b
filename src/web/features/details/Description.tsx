import { useState } from 'react';
import { describeText } from '../../../shared/details/text';

/** A description that collapses over 250 characters (map-and-search §5): the toggle exists only then. */
export function Description({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const view = describeText(text);
  if (view.full === '') return null;
  return (
    <div className="point-panel__description">
      <p>{expanded ? view.full : view.preview}</p>
      {view.collapsible && (
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}
