import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import { type Permission, PERMISSIONS, useCan } from '../permissions';
import { ErrorSummary, Field } from '../ui';

export interface RoleItem {
  name: string;
  description: string;
  permissions: string[];
  custom: boolean;
}

/** Members › Roles of your own: define one from the permissions you hold, or delete one nobody holds. */
export function CustomRoles({ roles }: { roles: RoleItem[] }) {
  const queryClient = useQueryClient();
  const can = useCan();
  const form = useRef<HTMLFormElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['roles'] });
  const create = useMutation({
    mutationFn: (body: { name: string; permissions: Permission[] }) =>
      unwrap(api.POST('/custom/api/v1/roles', { body })),
    onSuccess: () => {
      form.current?.reset();
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (name: string) => unwrap(api.DELETE('/custom/api/v1/roles/{name}', { params: { path: { name } } })),
    onSuccess: refresh,
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const own = roles.filter((role) => role.custom);
  return (
    <>
      <h3>Roles of your own</h3>
      <form
        ref={form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          create.mutate({
            name: String(data.get('role_name') ?? '').trim(),
            permissions: data.getAll('grants').map(String) as Permission[],
          });
        }}
      >
        <Field
          label="Role name"
          name="role_name"
          hint="Lower case, e.g. packing-desk."
          error={fields.name}
          maxLength={40}
        />
        <fieldset>
          <legend>It may</legend>
          {PERMISSIONS.filter(([permission]) => can(permission)).map(([permission, label]) => (
            <div className="field" key={permission}>
              <label>
                <input type="checkbox" name="grants" value={permission} /> {label} ({permission})
              </label>
            </div>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="secondary" disabled={create.isPending}>
            Define the role
          </button>
        </div>
      </form>
      <ErrorSummary error={create.error ?? remove.error} />
      {own.length > 0 && (
        <ul>
          {own.map((role) => (
            <li key={role.name}>
              <strong>{role.name}</strong>: {role.permissions.join(', ') || 'nothing'}{' '}
              <button
                type="button"
                className="danger"
                aria-label={`Delete the role ${role.name}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(role.name)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
