import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { API_ERROR_CODES, ApiError, apiPost } from '../../lib/api';
import { useSession } from '../accounts/session';
import { ErrorPanel } from '../../shell/SidePanel';
import { Dialog } from '../../ui/Dialog';
import { callbackAlert, hasCallbackUser, networkFailureText, type CallbackTarget } from './callback';
import { callbackAnswerSchema } from './schemas';

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
 * A modal dialog (ui/Dialog): focus moves in and stays, Escape and the backdrop close it, focus
 * returns.
 */
export function CallbackModal({ target, onClose }: { target: CallbackTarget; onClose(): void }) {
  const { signedIn, user } = useSession();
  const [phase, setPhase] = useState<Phase>({ kind: 'general' });
  const bodyRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const alert = callbackAlert(target);
  const canSend = alert === null && hasCallbackUser(target);

  // each outcome replaces the form: focus moves to the new content, so Escape and Tab keep working
  useEffect(() => {
    if (phase.kind === 'sending') return;
    const body = bodyRef.current;
    if (body === null || body.parentElement?.contains(document.activeElement)) return;
    const next = body.querySelector<HTMLElement>('button, input');
    (next ?? body.parentElement)?.focus();
  }, [phase.kind]);

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

  return (
    <Dialog
      className="callback-modal"
      labelledBy={titleId}
      initialFocus="input, textarea, .xp-modal__body button"
      onClose={onClose}
    >
      <div className="xp-modal__head">
        <h2 id={titleId} className="xp-modal__title">
          Request a callback
        </h2>
        <button type="button" className="xp-modal__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div ref={bodyRef} className="xp-modal__body">
        {body}
      </div>
    </Dialog>
  );
}
