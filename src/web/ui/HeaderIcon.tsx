/** The count a header icon shows at most; more reads '99+'. */
const MOST_SHOWN = 99;

/**
 * What the header's round icon buttons draw (the notifications bell, the inbox link): a 24-unit icon
 * from one SVG path, and the unread count on its corner when there is one. The caller's element (a
 * button, a link) carries the `xp-header-icon` class and the label that says the count in words.
 */
export function HeaderIconContent({ path, count, testId }: { path: string; count: number; testId: string }) {
  return (
    <>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path d={path} fill="currentColor" />
      </svg>
      {count > 0 && (
        <span className="xp-header-icon__count" data-testid={testId}>
          {count > MOST_SHOWN ? `${MOST_SHOWN}+` : count}
        </span>
      )}
    </>
  );
}
