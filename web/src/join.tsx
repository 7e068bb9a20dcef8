import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { invitationApi } from './api/client';
import { useFormSubmit } from './form-submit';
import { formatDateTime } from './format';
import { navigate, useTitle } from './router';
import { ErrorSummary, Field, Loading } from './ui';

/**
 * `/app/join#<token>`: the invitation link's page. The token is in the fragment, which the browser
 * never sends, so no server log or proxy keeps it; the page sends it in a body. Joining signs the
 * new member in and opens the panel.
 */
export function Join() {
  useTitle('Join your team');
  const queryClient = useQueryClient();
  const [token] = useState(() => window.location.hash.slice(1));
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => invitationApi.read(token),
    retry: false,
  });
  const { submit, busy, error, fields } = useFormSubmit(async (form) => {
    const session = await invitationApi.accept(token, String(form.get('name')), String(form.get('password')));
    queryClient.setQueryData(['session'], session);
    navigate('/overview', true);
  });
  const found = invitation.data;
  return (
    <main className="sign-in">
      <h1>Join your team on Dakiya</h1>
      {invitation.isPending ? (
        <Loading what="your invitation" />
      ) : !found ? (
        <>
          <ErrorSummary error={invitation.error} />
          <p>Ask whoever invited you to send the invitation again.</p>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>
            You are invited to <strong>{found.account_name}</strong> as {found.role}, signing in as {found.email}. The
            link works until {formatDateTime(found.expires_at)}.
          </p>
          <ErrorSummary error={error} />
          <Field
            label="Your name"
            name="name"
            autoComplete="name"
            required
            defaultValue={found.name ?? ''}
            error={fields.name}
          />
          <Field
            label="Choose a password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint="8 characters or more."
            error={fields.password}
          />
          <div className="actions">
            <button type="submit" disabled={busy}>
              Join
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
