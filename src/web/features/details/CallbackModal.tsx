import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { createPortal } from 'react-dom';
import { API_ERROR_CODES, ApiError, apiPost } from '../../lib/api';
import { useSession } from '../accounts/session';
import { ErrorPanel } from '../../shell/SidePanel';
import { callbackAlert, hasCallbackUser, networkFailureText, type CallbackTarget } from './callback';
import { callbackAnswerSchema } from './schemas';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const CALLBACK_PATH = '/v1/webonly/meonmap/requestimmunizationcard';

type Phase =
  | { kind: 'general' }
  | { kind: 'sending' }
  | { kind: 'success' }
  | { kind: 'error'; message: string }
  | { kind: 'network'; message: string };

/**
 * The request-callback modal for services (map-and-search §2, §4, §5, §8): general (the form), then
 * success or error. Without a provider to call, the error panel shows; without a service name or
 * point id, the spec's alert. A visitor leaves a phone or an email; a signed-in user is known.
 * A modal dialog: focus moves in and stays, Escape and the backdrop close it, focus returns.
 */
export function CallbackModal({ target, onClose }: { target: CallbackTarget; onClose(): void }) {
  const { signedIn, user } = useSession();
  const [phase, setPhase] = useState<Phase>({ kind: 'general' });
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const alert = callbackAlert(target);
  const canSend = alert === null && hasCallbackUser(target);

  useLayoutEffect(() => {
    const opener = document.activeElement;
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    const first = dialogRef.current?.querySelector<HTMLElement>(
      'input, textarea, button:not(.xp-modal__close)',
    );
    (first ?? dialogRef.current?.querySelector<HTMLElement>('button'))?.focus();
    return () => {
      root?.removeAttribute('inert');
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  // each outcome replaces the form: focus moves to the new content, so Escape and Tab keep working
  useEffect(() => {
    if (phase.kind === 'sending') return;
    const dialog = dialogRef.current;
    if (dialog === null || dialog.contains(document.activeElement)) return;
    const next = dialog.querySelector<HTMLElement>('.xp-modal__body button, .xp-modal__body input');
    (next ?? dialog).focus();
  }, [phase.kind]);

  // Escape closes the modal also when focus fell out of it (the page behind it is inert)
  useEffect(() => {
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      onClose();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, [onClose]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      // the modal lives in the panel's React tree: its Escape must not also close the panel
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

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    };
    setPhase({ kind: 'sending' });
    apiPost(CALLBACK_PATH, callbackAnswerSchema, {
      to_userid: target.toUserId,
      xpointid: target.xpointId,
      service_name: target.serviceName,
      name: field('name'),
      phone: field('phone'),
      email: field('email'),
      message: field('message'),
    }).then(
      () => setPhase({ kind: 'success' }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof ApiError && error.code === API_ERROR_CODES.network)
          setPhase({ kind: 'network', message: networkFailureText(message) });
        else setPhase({ kind: 'error', message });
      },
    );
  };

  let body;
  if (alert !== null)
    body = (
      <p className="callback-modal__alert" role="alert">
        {alert}
      </p>
    );
  else if (!canSend) body = <ErrorPanel message="This service has no provider to call you back." />;
  else if (phase.kind === 'success')
    body = (
      <div className="callback-modal__success" role="status">
        <p>
          <strong>Your request was sent.</strong>
        </p>
        <p>The provider of {target.serviceName} will call you back.</p>
        <button type="button" className="xp-button xp-button--primary" onClick={onClose}>
          Done
        </button>
      </div>
    );
  else if (phase.kind === 'error' || phase.kind === 'network')
    body =
      phase.kind === 'error' ? (
        <ErrorPanel message={phase.message}>
          <button type="button" className="xp-button" onClick={() => setPhase({ kind: 'general' })}>
            Try again
          </button>
        </ErrorPanel>
      ) : (
        <div className="callback-modal__network" role="alert">
          <p>{phase.message}</p>
          <button type="button" className="xp-button" onClick={() => setPhase({ kind: 'general' })}>
            Try again
          </button>
        </div>
      );
  else
    body = (
      <form className="callback-modal__form" onSubmit={send}>
        <p className="callback-modal__intro">
          {signedIn && user
            ? `Ask the provider of ${target.serviceName ?? 'this service'} to call you back, ${user.fullname || user.username}.`
            : `Leave a phone number or an email, and the provider of ${target.serviceName ?? 'this service'} will get back to you.`}
        </p>
        {!signedIn && (
          <>
            <label className="callback-modal__field">
              <span>Your name</span>
              <input name="name" autoComplete="name" maxLength={100} />
            </label>
            <label className="callback-modal__field">
              <span>Phone</span>
              <input name="phone" type="tel" autoComplete="tel" maxLength={40} />
            </label>
            <label className="callback-modal__field">
              <span>Email</span>
              <input name="email" type="email" autoComplete="email" maxLength={254} />
            </label>
          </>
        )}
        <label className="callback-modal__field">
          <span>Message (optional)</span>
          <textarea name="message" rows={3} maxLength={2000} />
        </label>
        <button type="submit" className="xp-button xp-button--primary" disabled={phase.kind === 'sending'}>
          {phase.kind === 'sending' ? 'Sending…' : 'Send the request'}
        </button>
      </form>
    );

  return createPortal(
    <div
      className="xp-modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className="xp-modal callback-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="xp-modal__head">
          <h2 id={titleId} className="xp-modal__title">
            Request a callback
          </h2>
          <button type="button" className="xp-modal__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <div className="xp-modal__body">{body}</div>
      </div>
    </div>,
    document.body,
  );
}
