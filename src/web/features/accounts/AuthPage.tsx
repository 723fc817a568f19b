import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isSafeReturnPath } from '../../../shared/address';
import { AuthForm } from './AuthForm';
import { PageHeader } from './PageHeader';
import { useSession, type AuthTab } from './session';
import './pages.css';

/** Only a same-site path may be returned to; anything else goes home. */
function returnPathOf(params: URLSearchParams): string {
  const value = params.get('returnUrl');
  return isSafeReturnPath(value) ? value : '/';
}

/** /signin and /signup: the modal's form on a page of its own, for direct links; back to ?returnUrl=. */
export function AuthPage({ mode }: { mode: AuthTab }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signedIn, loading } = useSession();
  const returnPath = returnPathOf(params);
  const query = params.get('returnUrl') ? `?returnUrl=${encodeURIComponent(returnPath)}` : '';
  const title = mode === 'signin' ? 'Sign in to XPoint' : 'Create your XPoint account';

  useEffect(() => {
    document.title = `${mode === 'signin' ? 'Sign in' : 'Create account'} — XPoint`;
  }, [mode]);

  // already signed in (or just signed in): on to where the visitor was going
  useEffect(() => {
    if (!loading && signedIn) navigate(returnPath, { replace: true });
  }, [loading, signedIn, navigate, returnPath]);

  return (
    <div className="page">
      <PageHeader />
      <main className="page__main auth-page">
        <div className="auth-page__card">
          <h1>{title}</h1>
          <AuthForm key={mode} mode={mode} onDone={() => navigate(returnPath, { replace: true })} />
          <p className="auth-page__switch">
            {mode === 'signin' ? (
              <>
                New here? <Link to={`/signup${query}`}>Create an account</Link>
              </>
            ) : (
              <>
                Have an account? <Link to={`/signin${query}`}>Sign in</Link>
              </>
            )}
          </p>
        </div>
      </main>
    </div>
  );
}
