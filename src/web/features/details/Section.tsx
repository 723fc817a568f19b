import { useId, useState, type ReactNode } from 'react';

/**
 * A panel section that expands and collapses (map-and-search §4): its heading is the toggle button,
 * and a collapsed section's content is hidden from everyone.
 */
export function Section({
  title,
  className,
  initiallyOpen = true,
  children,
}: {
  title: string;
  className?: string;
  initiallyOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const contentId = useId();
  return (
    <section className={className ? `details-section ${className}` : 'details-section'}>
      <h3 className="details-section__heading">
        <button
          type="button"
          className="details-section__toggle"
          aria-expanded={open}
          aria-controls={contentId}
          onClick={() => setOpen(!open)}
        >
          {title}
        </button>
      </h3>
      <div id={contentId} className="details-section__content" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
