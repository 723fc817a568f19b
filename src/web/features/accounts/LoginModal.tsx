import { useId, useState } from 'react';
import { Dialog } from '../../ui/Dialog';
import { AuthForm } from './AuthForm';
import type { AuthTab } from './session';

export interface LoginModalProps {
  initialTab: AuthTab;
  /** why the modal opened ('Sorry, You need to login to Like/Dislike.'), or null. */
  reason: string | null;
  onClose: () => void;
  onSignedIn: () => void;
}

/**
 * The login modal of social §2 (element id `ppreg`): shown to a visitor who tries to act. A modal
 * dialog (ui/Dialog): focus moves to the first field and is kept inside, Escape and the backdrop
 * close it, and focus returns to whatever opened it.
 */
export function LoginModal({ initialTab, reason, onClose, onSignedIn }: LoginModalProps) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const titleId = useId();
  const reasonId = useId();
  const tabIds = { signin: useId(), signup: useId() };
  const panelId = useId();

  const switchTab = (next: AuthTab, focusForm: boolean) => {
    setTab(next);
    // the new form's first field, once it is rendered
    if (focusForm)
      requestAnimationFrame(() =>
        document.getElementById(panelId)?.querySelector<HTMLElement>('form input')?.focus(),
      );
  };

  const title = tab === 'signin' ? 'Sign in to XPoint' : 'Create your XPoint account';

  return (
    <Dialog
      id="ppreg"
      className="auth-modal"
      labelledBy={titleId}
      describedBy={reason ? reasonId : undefined}
      initialFocus="input"
      onClose={onClose}
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
    </Dialog>
  );
}
