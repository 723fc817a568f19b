import { useLayoutEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './Dialog.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  /** the box's classes, after `xp-modal` (`auth-modal`, `callback-modal`). */
  className: string;
  id?: string;
  /** the id of the dialog's title: its accessible name. */
  labelledBy: string;
  describedBy?: string;
  /** Escape, a backdrop click (when allowed) or the close button: the owner unmounts the dialog. */
  onClose(): void;
  /** whether a press on the backdrop closes the dialog; true by default. */
  closeOnBackdrop?: boolean;
  /** what takes focus when the dialog opens (a selector inside it); else the first focusable. */
  initialFocus?: string;
  children: ReactNode;
}

/**
 * The one modal dialog of the web app: the native `<dialog>` opened with `showModal()`, so the
 * browser makes the rest of the page inert (Tab wraps around inside), and Escape asks to close it
 * (the `cancel` event). It opens on mount and closes on unmount, the owner deciding when through
 * `onClose`; focus then returns to whatever had it before (the opener). The box is the dialog
 * itself and `::backdrop` the shade around it, so a press outside the box is a press on the backdrop.
 */
export function Dialog({
  className,
  id,
  labelledBy,
  describedBy,
  onClose,
  closeOnBackdrop = true,
  initialFocus,
  children,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // the latest onClose, so the native listeners need not be bound again on every render
  const close = useRef(onClose);
  useLayoutEffect(() => {
    close.current = onClose;
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const opener = document.activeElement;
    dialog.showModal();
    if (initialFocus !== undefined) dialog.querySelector<HTMLElement>(initialFocus)?.focus();
    // Escape: the owner closes by unmounting. Chromium lets a page refuse a cancel only once per
    // user activation; a second Escape then closes the dialog natively, which is reported the same.
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    const onNativeClose = () => close.current();
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
    // opened once: the focus target is read when the dialog opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onMouseDown = (event: MouseEvent<HTMLDialogElement>) => {
    if (!closeOnBackdrop || event.target !== event.currentTarget) return;
    const box = event.currentTarget.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) onClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    // React events from a portal bubble through the React tree: the dialog's Escape must not also
    // reach a side panel that owns it (and would close itself)
    if (event.key === 'Escape') event.stopPropagation();
    if (event.key !== 'Tab') return;
    // the page behind is inert, but past the last control the browser would take focus to its own
    // toolbar: Tab and Shift+Tab wrap around inside the dialog instead
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) =>
      element.checkVisibility(),
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

  // a portal to the body, so the dialog takes none of its owner's styles
  return createPortal(
    <dialog
      ref={ref}
      id={id}
      className={`xp-modal xp-dialog ${className}`}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onMouseDown={onMouseDown}
      onKeyDown={onKeyDown}
    >
      {children}
    </dialog>,
    document.body,
  );
}
