import { useEffect, useState } from 'react';

/** §9: the claim banner appears this long after the point opens. */
export const CLAIM_BANNER_DELAY_MS = 2000;

/**
 * The claim banner (map-and-search §2, §4): on a point without an owner it slides in after 2 s with
 * the claim link, and can be dismissed.
 */
export function ClaimBanner({ href, title }: { href: string; title: string }) {
  const [shown, setShown] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setShown(true), CLAIM_BANNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (!shown || dismissed) return null;
  return (
    <div className="claim-banner" role="status">
      <p className="claim-banner__text">
        Do you run <strong>{title}</strong>? Claim it for free to keep its details right.
      </p>
      <a className="xp-button xp-button--primary" href={href}>
        Claim it
      </a>
      <button
        type="button"
        className="claim-banner__close"
        aria-label="Dismiss the claim banner"
        onClick={() => setDismissed(true)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
