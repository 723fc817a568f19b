import { useEffect, useId, useRef, useState } from 'react';
import { useFollowToggle } from './useFollowToggle';
import './follows.css';

export interface FeedItem {
  /** the post's id and address (`url`, what "copy link" copies) */
  id: string;
  url: string;
  /** the owner's user id; '' or null when the item has none */
  owner: string | null;
  isfollowed: 0 | 1;
}

/**
 * Social §2's feed-item menu: copy link (COPIED for 2 s), follow (isfollowed 0→1, or unfollow 1→0,
 * shown at once and put back if the server refuses; 122 counts as followed), cancel. A visitor gets
 * the login modal; an item without an owner id shows social §8's alert.
 */
export function FeedItemMenu({ item }: { item: FeedItem }) {
  const { followed, busy, alert, isOwn, toggle } = useFollowToggle(item.owner, item.isfollowed);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (copiedTimer.current) clearTimeout(copiedTimer.current);
    },
    [],
  );

  const copyLink = async () => {
    const link = new URL(item.url, window.location.origin).toString();
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // no clipboard permission: the address is still shown for copying by hand
      window.prompt('Copy this link', link);
    }
    setCopied(true);
    if (copiedTimer.current) clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), 2000);
  };

  const toggleFollow = async () => {
    if ((await toggle()) !== 'failed') setOpen(false);
  };

  return (
    <div className="feed-menu">
      <button
        ref={buttonRef}
        type="button"
        className="feed-menu__button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label="More actions"
        onClick={() => setOpen((was) => !was)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div id={menuId} className="feed-menu__list" role="group" aria-label="Post actions">
          <button type="button" onClick={() => void copyLink()}>
            {copied ? 'COPIED' : 'Copy link'}
          </button>
          {!isOwn && (
            <button type="button" disabled={busy} aria-pressed={followed} onClick={() => void toggleFollow()}>
              {followed ? 'Unfollow' : 'Follow'}
            </button>
          )}
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              buttonRef.current?.focus();
            }}
          >
            Cancel
          </button>
        </div>
      )}
      {followed && !open && !isOwn && <span className="feed-menu__state">Following</span>}
      {alert !== null && (
        <p className="feed-menu__alert" role="alert">
          {alert}
        </p>
      )}
    </div>
  );
}
