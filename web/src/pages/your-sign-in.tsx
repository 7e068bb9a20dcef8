import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, twoFactorApi } from '../api/client';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { useSession } from '../session';
import { ErrorSummary, Field, Loading } from '../ui';

/**
 * `/sign-in`: the signed-in person's own sign-in, whatever their role: two-factor sign-in with an
 * authenticator app (a secret to scan or type, a code to confirm, recovery codes shown once), and
 * turning it off with a code.
 */
export function YourSignIn() {
  useTitle('Your sign-in');
  const queryClient = useQueryClient();
  const { session } = useSession();
  const status = useQuery({ queryKey: ['two-factor'], queryFn: twoFactorApi.status });
  const [setUp, setSetUp] = useState<{ secret: string; otpauth_url: string } | undefined>();
  const [recovery, setRecovery] = useState<string[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: ['two-factor'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const codeOf = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    return String(new FormData(event.currentTarget).get('code') ?? '').trim();
  };
  const fields = error instanceof ApiError ? error.fieldErrors() : {};
  const on = status.data?.enabled;
  return (
    <section>
      <h1>Your sign-in</h1>
      {session.two_factor_setup_required && (
        <p className="notice" role="alert">
          {session.account.name} asks its owners to sign in with two-factor: set it up below to go on.
        </p>
      )}
      <h2>Two-factor sign-in</h2>
      <ErrorSummary error={error ?? status.error} />
      {recovery && (
        <div className="notice" role="status">
          <p>
            Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once without your
            phone. They are shown only now.
          </p>
          <ul className="secret">
            {recovery.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
          {session.two_factor_setup_required && (
            // Only once the codes are kept: the rest of the panel then replaces this screen.
            <button type="button" onClick={() => void queryClient.invalidateQueries({ queryKey: ['session'] })}>
              I have kept them: go on
            </button>
          )}
        </div>
      )}
      {status.isPending ? (
        <Loading what="your sign-in" />
      ) : on ? (
        <form onSubmit={(event) => void run(async () => void (await twoFactorApi.disable(codeOf(event))))} noValidate>
          <p>
            On since {formatDateTime(status.data!.enabled_at!)}; {status.data!.recovery_codes_left} recovery codes left.
          </p>
          <Field label="Code to turn it off" name="code" autoComplete="one-time-code" required error={fields.code} />
          <button type="submit" className="secondary" disabled={busy}>
            Turn two-factor sign-in off
          </button>
        </form>
      ) : setUp ? (
        <form
          onSubmit={(event) =>
            void run(async () => {
              setRecovery((await twoFactorApi.confirm(codeOf(event))).recovery_codes);
              setSetUp(undefined);
            })
          }
          noValidate
        >
          <p>
            Add Dakiya to your authenticator app (Google Authenticator, Authy, 1Password…): open{' '}
            <a href={setUp.otpauth_url}>this link</a> on your phone, or type this key:
          </p>
          <Field
            label="Key"
            value={setUp.secret}
            readOnly
            className="secret"
            onFocus={(e) => e.currentTarget.select()}
          />
          <Field label="Code the app shows" name="code" autoComplete="one-time-code" required error={fields.code} />
          <button type="submit" disabled={busy}>
            Turn it on
          </button>
        </form>
      ) : (
        <>
          <p>Off. With it on, signing in asks for a code from an app on your phone as well as your password.</p>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(async () => setSetUp(await twoFactorApi.start()))}
          >
            Set up two-factor sign-in
          </button>
        </>
      )}
    </section>
  );
}
