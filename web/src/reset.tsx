import { useState } from 'react';
import { passwordResetApi } from './api/client';
import { useFormSubmit } from './form-submit';
import { Link, useTitle } from './router';
import { ErrorSummary, Field } from './ui';

/**
 * `/app/reset`: a member asks for a link by e-mail; `/app/reset#<token>`: the link's page, where
 * they choose a new password (which signs them out everywhere). The token stays in the fragment,
 * which the browser never sends.
 */
export function ResetPassword() {
  const [token] = useState(() => window.location.hash.slice(1));
  useTitle(token ? 'Choose a new password' : 'Forgot your password');
  const [done, setDone] = useState<string | undefined>();
  const { submit, busy, error, fields } = useFormSubmit(async (form) => {
    const answer = token
      ? await passwordResetApi.confirm(token, String(form.get('password')))
      : await passwordResetApi.ask(String(form.get('email')).trim());
    setDone(answer.message);
  });
  return (
    <main className="sign-in">
      <h1>{token ? 'Choose a new password' : 'Forgot your password?'}</h1>
      {done ? (
        <div className="notice" role="status">
          <p>{done}.</p>
          <p>
            <Link to="/overview">Sign in</Link>
          </p>
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorSummary error={error} />
          {token ? (
            <Field
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              hint="8 characters or more. Every device you are signed in on is signed out."
              error={fields.password}
            />
          ) : (
            <>
              <p>A member of a team gets a link by e-mail. The account's own login asks its operator.</p>
              <Field label="Your e-mail" name="email" type="email" autoComplete="email" required error={fields.email} />
            </>
          )}
          <button type="submit" disabled={busy}>
            {token ? 'Change the password' : 'Send me a link'}
          </button>
        </form>
      )}
    </main>
  );
}
