import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { AuthForm } from './AuthForm';
import type { AuthTab } from './session';
import './accounts.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface LoginModalProps {
  initialTab: AuthTab;
  /** why the modal opened ('Sorry, You need to login to Like/Dislike.'), or null. */
  reason: string | null;
  onClose: () => void;
  onSignedIn: () => void;
}

/**
 * The login modal of social §2 (element id `ppreg`): shown to a visitor who tries to act. A modal
 * dialog: focus moves in and is kept inside, Escape and the backdrop close it, and focus returns to
 * whatever opened it.
 */
export function LoginModal({ initialTab, reason, onClose, onSignedIn }: LoginModalProps) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const dialogRef = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const reasonId = useId();
  const tabIds = { signin: useId(), signup: useId() };
  const panelId = useId();

  // Remember the opener before focus moves in and give focus back when the modal goes. The rest of
  // the page is inert meanwhile (no stray tab stops, no screen-reader wander); it must be live again
  // before the opener can take focus, hence one effect for both.
  useLayoutEffect(() => {
    opener.current = document.activeElement;
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    dialogRef.current?.querySelector<HTMLElement>('input')?.focus();
    return () => {
      root?.removeAttribute('inert');
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter(
      (element) => element.offsetParent !== null,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const switchTab = (next: AuthTab, focusForm: boolean) => {
    setTab(next);
    // the new form's first field, once it is rendered
    if (focusForm)
      requestAnimationFrame(() => dialogRef.current?.querySelector<HTMLElement>('form input')?.focus());
  };

  const title = tab === 'signin' ? 'Sign in to XPoint' : 'Create your XPoint account';

  // a portal beside #root, so making #root inert leaves the modal alive
  return createPortal(
    <div
      className="xp-modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        id="ppreg"
        ref={dialogRef}
        className="xp-modal auth-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={reason ? reasonId : undefined}
        onKeyDown={onKeyDown}
      >
        <div className="xp-modal__head">
          <h2 id={titleId} className="xp-modal__title">
            {title}
          </h2>
          <button type="button" className="xp-modal__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {reason && (
          <p id={reasonId} className="auth-modal__reason">
            {reason}
          </p>
        )}
        <div className="auth-tabs" role="tablist" aria-label="Sign in or create an account">
          {(['signin', 'signup'] as const).map((name) => (
            <button
              key={name}
              id={tabIds[name]}
              type="button"
              role="tab"
              className="auth-tabs__tab"
              aria-selected={tab === name}
              aria-controls={panelId}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => switchTab(name, true)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                  const other = name === 'signin' ? 'signup' : 'signin';
                  switchTab(other, false);
                  document.getElementById(tabIds[other])?.focus();
                }
              }}
            >
              {name === 'signin' ? 'Sign in' : 'Create account'}
            </button>
          ))}
        </div>
        <div id={panelId} role="tabpanel" aria-labelledby={tabIds[tab]}>
          <AuthForm key={tab} mode={tab} onDone={onSignedIn} />
        </div>
      </div>
    </div>,
    document.body,
  );
}
