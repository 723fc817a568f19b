import type { ReactNode } from 'react';

/**
 * The frame of the pages the server renders outside the app (the city page, the event page, their
 * 404s): the brand back to the app, one link of the page's own, the content, and a short footer.
 */
export function PageFrame({
  link,
  children,
}: {
  /** the bar's link on the right: the map at this place. */
  link?: { href: string; text: string } | undefined;
  children: ReactNode;
}) {
  return (
    <div className="citypage">
      <header className="citypage-bar">
        <a className="citypage-bar__brand" href="/">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7z" />
            <circle cx="12" cy="9" r="2.6" fill="#fff" />
          </svg>
          XPoint
        </a>
        {link && (
          <a className="citypage-bar__link" href={link.href}>
            {link.text}
          </a>
        )}
      </header>
      <main className="citypage-main">{children}</main>
      <footer className="citypage-footer">
        <a href="/">XPoint</a> · the map of what is on near you
      </footer>
    </div>
  );
}
