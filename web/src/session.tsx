import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { ApiError, type Session, sessionApi, setCsrfToken, whenSignedOut } from './api/client';
import { useTitle } from './router';
import { useFormSubmit } from './form-submit';
import { ErrorSummary, Field } from './ui';

const SessionContext = createContext<
  { session: Session; signOut: () => Promise<void>; signOutEverywhere: () => Promise<void> } | undefined
>(undefined);

export function useSession() {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in panel');
  return value;
}

/** Nothing of one account's data may show after another signs in on the same page. */
function forgetAccountData(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
}

/** Shows the sign-in form until the server says a session is live, then the panel. */
export function SessionGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ['session'],
    queryFn: async () => (await sessionApi.current()) ?? null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    whenSignedOut(() => queryClient.setQueryData(['session'], null));
  }, [queryClient]);
  if (current.isPending) return null;
  const session = current.data;
  if (!session) {
    return (
      <SignIn
        onSignedIn={(s) => {
          forgetAccountData(queryClient);
          queryClient.setQueryData(['session'], s);
        }}
      />
    );
  }
  setCsrfToken(session.csrf_token);
  const signedOut = () => {
    setCsrfToken('');
    forgetAccountData(queryClient);
    queryClient.setQueryData(['session'], null);
  };
  const signOut = async () => {
    await sessionApi.signOut();
    signedOut();
  };
  const signOutEverywhere = async () => {
    await sessionApi.signOutEverywhere();
    signedOut();
  };
  return <SessionContext.Provider value={{ session, signOut, signOutEverywhere }}>{children}</SessionContext.Provider>;
}

function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  useTitle('Sign in');
  // Asked once the password was right and the login has two-factor sign-in on.
  const [needsCode, setNeedsCode] = useState(false);
  const { submit, busy, error, fields } = useFormSubmit(
    async (form) => {
      const code = needsCode ? String(form.get('code') ?? '').trim() : undefined;
      const session = await sessionApi.signIn(String(form.get('username')), String(form.get('password')), code);
      if (session) onSignedIn(session);
    },
    (caught) => {
      const asked = caught instanceof ApiError && caught.code === 'two_factor_required';
      if (asked) setNeedsCode(true);
      return asked;
    },
  );
  return (
    <main className="sign-in">
      <h1>Sign in to Dakiya</h1>
      <form onSubmit={submit} noValidate>
        <ErrorSummary error={error} />
        <Field label="Username" name="username" autoComplete="username" required error={fields.username} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fields.password}
        />
        {needsCode && (
          <Field
            label="Code from your authenticator app"
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            autoFocus
            hint="Six digits from the app, or one of your recovery codes."
            error={fields.code}
          />
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="hint">
        Use your account's username and password (the ones POST /auth-token takes), or your e-mail if you were invited.
      </p>
      <p>
        <a href="/app/reset">Forgot your password?</a>
      </p>
    </main>
  );
}
