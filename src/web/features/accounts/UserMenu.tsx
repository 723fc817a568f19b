import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { withCreatePost } from '../posts/flags';
import { profileLink } from '../../../shared/address/links';
import { ChatBadge } from '../chat/ChatBadge';
import { NotificationBell } from '../follows/NotificationBell';
import { Avatar } from './Avatar';
import { useSession } from './session';
import './accounts.css';

/**
 * The header's account corner: a 'Sign in' button for a visitor; for a signed-in user an avatar
 * button opening a menu (ARIA menu button: arrows, Home, End, Escape) with the full name, Profile,
 * Account settings, My help requests, New post (createpost=open on the page it is on), for admins
 * Claims to verify (/admin/claims), and Sign out.
 */
export function UserMenu() {
  const { user, signedIn, loading, openLogin, signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  /** why signing out failed, shown in the menu. */
  const [error, setError] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const signInRef = useRef<HTMLButtonElement>(null);
  /** set on sign-out, so focus lands on the Sign in button that replaces the menu. */
  const focusSignIn = useRef(false);

  useEffect(() => {
    if (signedIn || !focusSignIn.current) return;
    focusSignIn.current = false;
    signInRef.current?.focus();
  }, [signedIn]);

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  // a click anywhere else closes the menu
  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  if (loading) return <div className="user-menu user-menu--loading" aria-hidden="true" />;

  if (!signedIn || user === null) {
    return (
      <div className="user-menu">
        <button
          ref={signInRef}
          type="button"
          className="xp-button xp-button--primary user-menu__signin"
          onClick={() => openLogin()}
        >
          Sign in
        </button>
      </div>
    );
  }

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const openMenu = (focus: 'first' | 'last') => {
    setOpen(true);
    requestAnimationFrame(() => {
      const list = items();
      (focus === 'first' ? list[0] : list[list.length - 1])?.focus();
    });
  };

  const go = (path: string) => {
    close(false);
    navigate(path);
  };

  const onSignOut = async () => {
    setBusy(true);
    setError(null);
    focusSignIn.current = true;
    try {
      await signOut();
      setOpen(false);
    } catch (failure) {
      focusSignIn.current = false;
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') close(false);
  };

  return (
    <div className="user-menu">
      <NotificationBell />
      <ChatBadge />
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Account menu for ${user.fullname}`}
        onClick={() => (open ? close(false) : openMenu('first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            openMenu('first');
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            openMenu('last');
          }
        }}
      >
        <Avatar fullname={user.fullname} username={user.username} src={user.avatar} />
        <span className="user-menu__label" aria-hidden="true">
          {user.fullname}
        </span>
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          className="user-menu__list"
          role="menu"
          aria-label="Account"
          onKeyDown={onMenuKeyDown}
        >
          <div className="user-menu__who" role="presentation">
            <span className="user-menu__name">{user.fullname}</span>
            <span className="user-menu__username">@{user.username}</span>
          </div>
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => go(profileLink(user.username))}>
            Profile
          </button>
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => go('/account')}>
            Account settings
          </button>
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => go('/MyHelpRequests')}>
            My help requests
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            // social §2: createpost=open on the page the user is on opens the post form over it
            onClick={() => go(withCreatePost(location.pathname, location.search))}
          >
            New post
          </button>
          {user.isAdmin && (
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => go('/admin/claims')}>
              Claims to verify
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            disabled={busy}
            onClick={() => void onSignOut()}
          >
            {busy ? 'Signing out…' : 'Sign out'}
          </button>
          {error !== null && (
            <p className="user-menu__error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
