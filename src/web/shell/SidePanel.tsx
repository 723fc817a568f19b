import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { forgetPaintedPanel, paintedPanelPending } from '../ssr/firstPaintInput';

export interface SidePanelProps {
  /** the heading; focus moves to it when the panel opens or its level changes. */
  title: ReactNode;
  /** an extra class naming the panel's content (cluster-list, point-panel, ...). */
  className?: string;
  /** present when a previous level exists: the back button restores it. */
  onBack?: () => void;
  /** closes the panel: the shell returns to map mode. */
  onClose(): void;
  /** what the close button says to a screen reader. */
  closeLabel?: string;
  /** changes when the panel shows another level, so focus moves to the new heading. */
  levelKey?: string;
  /** shown where it is, without sliding in (a panel the server painted, and the app's that replaces it). */
  still?: boolean;
  children: ReactNode;
}

/**
 * The side panel (map-and-search §2): beside the map on wide screens, a bottom sheet on phones. One
 * frame for every level (cluster lists, search results, points, events): a back button when a level
 * came before, the heading that takes focus, a close button, and Escape to close.
 */
export function SidePanel({
  title,
  className,
  onBack,
  onClose,
  closeLabel = 'Close the panel',
  levelKey,
  still: stillAsked = false,
  children,
}: SidePanelProps) {
  // the app's first panel over a painted one keeps that one's place: sliding in again would flash it
  const [still] = useState(() => stillAsked || paintedPanelPending());
  useEffect(() => forgetPaintedPanel(), []);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const showRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  // §2 show, hide, toggle: hidden, the panel stays mounted with its level, so showing it again
  // brings back the same list or place (a phone user looks at the map and comes back)
  const [hidden, setHidden] = useState(false);
  const [shownLevel, setShownLevel] = useState(levelKey);
  if (shownLevel !== levelKey) {
    // a new level (a marker clicked while hidden) shows the panel again
    setShownLevel(levelKey);
    setHidden(false);
  }
  useEffect(() => {
    if (hidden) showRef.current?.focus({ preventScroll: true });
    else headingRef.current?.focus({ preventScroll: true });
  }, [levelKey, hidden]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.stopPropagation();
    onClose();
  };
  const classes = [
    'side-panel',
    ...(className === undefined ? [] : [className]),
    ...(hidden ? ['side-panel--hidden'] : []),
    ...(still ? ['side-panel--still'] : []),
  ];
  return (
    <>
      {hidden && (
        <button
          ref={showRef}
          type="button"
          className="side-panel-show xp-button"
          aria-label="Show the panel"
          onClick={() => setHidden(false)}
        >
          <span aria-hidden="true">☰</span> <span className="side-panel-show__title">{title}</span>
        </button>
      )}
      <aside className={classes.join(' ')} aria-labelledby={headingId} onKeyDown={onKeyDown} hidden={hidden}>
        <div className="side-panel__head">
          {onBack !== undefined && (
            <button type="button" className="side-panel__back" aria-label="Back" onClick={onBack}>
              <span aria-hidden="true">‹</span>
            </button>
          )}
          <h2 id={headingId} ref={headingRef} tabIndex={-1} className="side-panel__title">
            {title}
          </h2>
          <button
            type="button"
            className="side-panel__hide"
            aria-label="Hide the panel"
            title="Hide the panel to see the map"
            onClick={() => setHidden(true)}
          >
            <span aria-hidden="true">⌄</span>
          </button>
          <button type="button" className="side-panel__close" aria-label={closeLabel} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="side-panel__content">{children}</div>
      </aside>
    </>
  );
}

/** The content area's loader: announced politely, drawn as a spinner. */
export function PanelLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="panel-loader" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** The spec's panel text for every failure (§8). */
export const ERROR_PANEL_TITLE = 'Oops! Something went wrong. Error.';

/**
 * The error panel (§8): the spec's sentence, then what went wrong as safe text (the API's error, or
 * the failed answer's text without markup: src/shared/http/safeText via the API client).
 */
export function ErrorPanel({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="error-panel" role="alert">
      <p className="error-panel__title">{ERROR_PANEL_TITLE}</p>
      <p className="error-panel__message">{message}</p>
      {children}
    </div>
  );
}
