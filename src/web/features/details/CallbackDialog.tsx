import { useContext, type ComponentProps } from 'react';
import { SessionProvider } from '../accounts/SessionProvider';
import { SessionContext } from '../accounts/session';
import { CallbackModal } from './CallbackModal';

/**
 * The request-callback modal, loaded when asked for. Inside the app it uses the app's session; on
 * the server-rendered full-screen page, which hydrates without one, it brings its own.
 */
export function CallbackDialog(props: ComponentProps<typeof CallbackModal>) {
  const session = useContext(SessionContext);
  if (session !== null) return <CallbackModal {...props} />;
  return (
    <SessionProvider>
      <CallbackModal {...props} />
    </SessionProvider>
  );
}
