import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { useSession } from '../session';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';
import { CustomRoles, type RoleItem } from './custom-roles';
import { MemberStoresEditor, StoresPicker, storesInWords } from './member-stores';
import { useReferenceData } from './reference';
import { SettingsNav } from './settings-nav';

type Role = string;
const ROLE_LABELS: Record<string, string> = {
  owner: 'Owner: everything',
  admin: 'Admin: everything but owners',
  operations: 'Operations: shipping, NDR, returns',
  finance: 'Finance: COD, charges, refunds',
  support: 'Support: reads, and NDR with the buyer',
  viewer: 'Viewer: reads only',
};

const STATUS: Record<string, string> = { invited: 'Invited', active: 'Active', suspended: 'Suspended' };

/** An invitation whose e-mail did not go: its link, for the inviter to pass on. */
interface Unsent {
  email: string;
  url: string;
  why: string;
}

/** Settings › Members: invite by e-mail with a role and the stores they keep to, change them, suspend, reactivate, remove. */
export function Members() {
  useTitle('Members');
  const { session } = useSession();
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: ['members'], queryFn: () => unwrap(api.GET('/custom/api/v1/members')) });
  const roleList = useQuery({ queryKey: ['roles'], queryFn: () => unwrap(api.GET('/custom/api/v1/roles')) });
  const roles: RoleItem[] = roleList.data?.data ?? [];
  const ROLES = roles.length > 0 ? roles.map((role) => role.name) : Object.keys(ROLE_LABELS);
  const { stores } = useReferenceData();
  const [inviteStores, setInviteStores] = useState<string[]>([]);
  const [unsent, setUnsent] = useState<Unsent | undefined>();
  const inviteForm = useRef<HTMLFormElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['members'] });
  const shown = (answer: {
    data: { email: string };
    invitation: { email: string; accept_url?: string; error?: string };
  }) => {
    const { invitation } = answer;
    setUnsent(
      invitation.accept_url
        ? {
            email: answer.data.email,
            url: invitation.accept_url,
            why:
              invitation.email === 'failed'
                ? `The e-mail server refused it (${invitation.error})`
                : 'No e-mail server is set up',
          }
        : undefined,
    );
    return refresh();
  };
  const invite = useMutation({
    mutationFn: (body: { email: string; role: Role; name?: string; stores?: string[] }) =>
      unwrap(api.POST('/custom/api/v1/members', { body })),
    onSuccess: (answer) => {
      inviteForm.current?.reset();
      setInviteStores([]);
      return shown(answer);
    },
  });
  const act = useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'suspend' | 'reactivate' | 'remove' | 'resend' }) => {
      const at = { params: { path: { id } } };
      if (action === 'remove') return unwrap(api.DELETE('/custom/api/v1/members/{id}', at));
      if (action === 'resend') return shown(await unwrap(api.POST('/custom/api/v1/members/{id}/invitation', at)));
      if (action === 'suspend') return unwrap(api.POST('/custom/api/v1/members/{id}/suspend', at));
      return unwrap(api.POST('/custom/api/v1/members/{id}/reactivate', at));
    },
    onSuccess: refresh,
  });
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      unwrap(api.PATCH('/custom/api/v1/members/{id}', { params: { path: { id } }, body: { role } })),
    onSuccess: refresh,
  });
  const changeStores = useMutation({
    mutationFn: ({ id, stores }: { id: string; stores: string[] | null }) =>
      unwrap(api.PATCH('/custom/api/v1/members/{id}', { params: { path: { id } }, body: { stores } })),
    onSuccess: refresh,
  });
  const fields = invite.error instanceof ApiError ? invite.error.fieldErrors() : {};
  const list = members.data?.data ?? [];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Members</h2>
      <p>
        Your team signs in with their own e-mail and password; their role says what they may do. The account's own login
        ({session.account.username ?? session.account.name}) is an owner and is not listed.
      </p>
      <form
        ref={inviteForm}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const name = String(form.get('name') ?? '').trim();
          invite.mutate({
            email: String(form.get('email') ?? '').trim(),
            role: String(form.get('role')) as Role,
            ...(name && { name }),
            ...(inviteStores.length > 0 && { stores: inviteStores }),
          });
        }}
        noValidate
      >
        <Field label="E-mail" name="email" type="email" autoComplete="off" required error={fields.email} />
        <Field label="Name (optional)" name="name" maxLength={100} error={fields.name} />
        <SelectField
          label="Role"
          name="role"
          defaultValue="operations"
          options={ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] ?? `${role}: your own role` }))}
          error={fields.role}
        />
        {stores.length > 1 && (
          <StoresPicker stores={stores} chosen={inviteStores} onChange={setInviteStores} error={fields.stores} />
        )}
        <div className="actions">
          <button type="submit" disabled={invite.isPending}>
            Invite
          </button>
        </div>
      </form>
      <ErrorSummary error={invite.error ?? act.error ?? changeRole.error ?? changeStores.error ?? members.error} />
      {unsent && (
        <div className="notice" role="status">
          <p>
            {unsent.why}: send {unsent.email} this link yourself. It works once, for 7 days.
          </p>
          <Field
            label="Invitation link"
            value={unsent.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      )}
      {members.isPending ? (
        <Loading what="the members" />
      ) : list.length === 0 ? (
        <EmptyState title="No members yet">
          <p>Invite your warehouse team, support desk or finance person above.</p>
        </EmptyState>
      ) : (
        <table className="data">
          <caption>Members, in the order they were invited</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">Stores</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((m) => {
              const who = m.name ? `${m.name} (${m.email})` : m.email;
              const busy = act.isPending || changeRole.isPending || changeStores.isPending;
              return (
                <tr key={m.id}>
                  <td data-label="Member">{who}</td>
                  <td data-label="Role">
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={busy || m.id === session.member?.id}
                      onChange={(event) => changeRole.mutate({ id: m.id, role: event.currentTarget.value as Role })}
                    >
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td data-label="Stores">
                    {m.id === session.member?.id || stores.length < 2 ? (
                      storesInWords(m.stores, stores)
                    ) : (
                      <MemberStoresEditor
                        key={String(m.stores)}
                        email={m.email}
                        current={m.stores}
                        stores={stores}
                        busy={busy}
                        onSave={(ids) => changeStores.mutate({ id: m.id, stores: ids })}
                      />
                    )}
                  </td>
                  <td data-label="Status">
                    {STATUS[m.status] ?? m.status}
                    {m.invitation_expires_at && ` until ${formatDateTime(m.invitation_expires_at)}`}
                  </td>
                  <td data-label="Actions">
                    {m.id !== session.member?.id && (
                      <>
                        {m.status === 'invited' && (
                          <button
                            type="button"
                            className="secondary"
                            disabled={busy}
                            onClick={() => act.mutate({ id: m.id, action: 'resend' })}
                          >
                            Send again
                          </button>
                        )}
                        {m.status === 'active' && (
                          <button
                            type="button"
                            className="secondary"
                            disabled={busy}
                            onClick={() => act.mutate({ id: m.id, action: 'suspend' })}
                            aria-label={`Suspend ${m.email}`}
                          >
                            Suspend
                          </button>
                        )}
                        {m.status === 'suspended' && (
                          <button
                            type="button"
                            className="secondary"
                            disabled={busy}
                            onClick={() => act.mutate({ id: m.id, action: 'reactivate' })}
                            aria-label={`Reactivate ${m.email}`}
                          >
                            Reactivate
                          </button>
                        )}
                        <button
                          type="button"
                          className="danger"
                          disabled={busy}
                          aria-label={`Remove ${m.email}`}
                          onClick={() => {
                            if (window.confirm(`Remove ${m.email}? They are signed out and their keys stop.`))
                              act.mutate({ id: m.id, action: 'remove' });
                          }}
                        >
                          Remove
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <CustomRoles roles={roles} />
    </section>
  );
}
