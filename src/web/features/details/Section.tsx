import { createContext, useContext, useId, useState, type ReactNode } from 'react';

/**
 * The heading level of the sections below: 3 in the side panel (under its title), 2 on the
 * full-screen page (under the point's h1), so headings never skip a level.
 */
export const SectionLevel = createContext<2 | 3>(3);

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
  const Heading = useContext(SectionLevel) === 2 ? 'h2' : 'h3';
  return (
    <section className={className ? `details-section ${className}` : 'details-section'}>
      <Heading className="details-section__heading">
        <button
          type="button"
          className="details-section__toggle"
          aria-expanded={open}
          aria-controls={contentId}
          onClick={() => setOpen(!open)}
        >
          {title}
        </button>
      </Heading>
      <div id={contentId} className="details-section__content" hidden={!open}>
        {children}
      </div>
    </section>
  );
}

/** A heading inside a section: one level under the section's own. */
export function SubHeading({ className, children }: { className?: string; children: ReactNode }) {
  const Heading = useContext(SectionLevel) === 2 ? 'h3' : 'h4';
  return <Heading className={className}>{children}</Heading>;
}
