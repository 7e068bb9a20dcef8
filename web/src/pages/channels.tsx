import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, api, type FieldError, type PostBody, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { channelName, formatDateTime } from '../format';
import { formProblems, inFormWords, typedNumber } from '../form-words';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';
import { useReferenceData } from './reference';
import { SettingsNav } from './settings-nav';

// Settings → Sales channels: a Shopify shop or a WooCommerce site feeding one of the account's
// stores (/custom/api/v1/channels): connect, health, the webhook to add in the
// store, sync, disconnect, the import settings, and the store orders that could not be imported.

type ConnectBody = PostBody<'/custom/api/v1/channels'>;
type SettingsBody = NonNullable<
  paths['/custom/api/v1/channels/{id}']['patch']['requestBody']
>['content']['application/json'];
type Channel = paths['/custom/api/v1/channels']['get']['responses'][200]['content']['application/json']['data'][number];
type Platform = ConnectBody['channel'];
type Credential = { name: keyof ConnectBody & string; label: string; hint: string; secret?: boolean };

/** What each platform asks for, and where in its admin each credential is found (the API's own words). */
const PLATFORMS: Record<Platform, { name: string; fields: Credential[] }> = {
  shopify: {
    name: 'Shopify',
    fields: [
      {
        name: 'shop_domain',
        label: 'Shop domain',
        hint: 'The shop\'s myshopify.com domain ("acme.myshopify.com"): Settings → Domains in the admin.',
      },
      {
        name: 'access_token',
        label: 'Admin API access token',
        hint: "The custom app's Admin API access token (shpat_…): Settings → Apps and sales channels → Develop apps → the app → API credentials. Scopes: read_orders, write_orders, read_merchant_managed_fulfillment_orders, write_merchant_managed_fulfillment_orders.",
        secret: true,
      },
      {
        name: 'webhook_secret',
        label: 'API secret key',
        hint: "The secret the shop signs its webhooks with: the app's API secret key, on the same API credentials page.",
        secret: true,
      },
    ],
  },
  woocommerce: {
    name: 'WooCommerce',
    fields: [
      {
        name: 'site_url',
        label: 'Site address',
        hint: "The WordPress site's address (https://shop.example.in).",
      },
      {
        name: 'consumer_key',
        label: 'Consumer key',
        hint: 'The REST API key (ck_…): WooCommerce → Settings → Advanced → REST API → Add key, with Read/Write permission.',
        secret: true,
      },
      {
        name: 'consumer_secret',
        label: 'Consumer secret',
        hint: "The key's secret (cs_…), shown with the key when it is made.",
        secret: true,
      },
      {
        name: 'webhook_secret',
        label: 'Webhook secret',
        hint: 'The Secret of each webhook you add (WooCommerce → Settings → Advanced → Webhooks): give every one the same.',
        secret: true,
      },
    ],
  },
};

/** Where the store's webhooks are added, and how, in its admin. */
const WEBHOOK_PLACE: Record<string, string> = {
  shopify: 'In the Shopify admin, Settings → Notifications → Webhooks: add one webhook per topic, format JSON, to',
  woocommerce:
    'In WordPress, WooCommerce → Settings → Advanced → Webhooks: add one webhook per topic, with the webhook secret you gave here, delivering to',
};

const SETTING_LABELS: Record<string, string> = {
  warehouse_id: 'Ships from',
  on_import: 'When an order comes in',
  notify_customer: 'The store e-mails the buyer',
  default_weight: 'Default weight (kg)',
  length: 'Length (cm)',
  breadth: 'Breadth (cm)',
  height: 'Height (cm)',
};
const CONNECT_LABELS: Record<string, string> = {
  ...SETTING_LABELS,
  channel: 'Platform',
  store_id: 'Store',
  store_name: 'Store',
  ...Object.fromEntries(Object.values(PLATFORMS).flatMap((p) => p.fields.map((f) => [f.name, f.label]))),
};
const labelOf = (labels: Record<string, string>) => (field: string) => labels[field];

const ON_IMPORT = [
  { value: 'queue', label: 'Wait for me to book it' },
  { value: 'book', label: 'Book it at once by the allocation rules' },
];

/** The counts as a merchant reads them: imported, refused and waiting always, the rest when any. */
function countsWords(counts: Channel['counts']): string {
  const words = [`${counts.imported} imported`, `${counts.refused} refused`, `${counts.pending} waiting`];
  if (counts.skipped > 0) words.push(`${counts.skipped} skipped`);
  if (counts.cancelled > 0) words.push(`${counts.cancelled} cancelled`);
  if (counts.cancel_flagged > 0) words.push(`${counts.cancel_flagged} cancelled in the store after pickup`);
  return words.join(', ');
}

const shopOf = (c: Channel) => `${c.shop_name} (${c.shop_domain ?? c.site_url ?? '—'})`;

/**
 * The settings fields both forms share, read from a form: the numbers checked first, every
 * problem at once. `clearing` sends an empty default weight as null (PATCH), else leaves it out.
 */
function readSettings(data: FormData, clearing: boolean): { settings: SettingsBody; problems: FieldError[] } {
  const settings: Record<string, unknown> = {
    on_import: String(data.get('on_import') ?? 'queue'),
    notify_customer: data.get('notify_customer') === 'on',
  };
  const warehouse = String(data.get('warehouse_id') ?? '');
  if (warehouse) settings.warehouse_id = warehouse;
  const problems: FieldError[] = [];
  for (const name of ['default_weight', 'length', 'breadth', 'height'] as const) {
    const typed = String(data.get(name) ?? '').trim();
    if (typed === '') {
      if (clearing && name === 'default_weight') settings[name] = null;
      continue;
    }
    const value = typedNumber(typed);
    if (Number.isNaN(value) || value <= 0)
      problems.push({ field: name, message: `${SETTING_LABELS[name]} must be a number above 0` });
    else settings[name] = value;
  }
  return { settings: settings as SettingsBody, problems };
}

export function Channels() {
  useTitle('Sales channels');
  const channels = useQuery({
    queryKey: ['channels'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/channels')),
    // Orders come in by webhook and pull while the page is open: worth a fresh look.
    refetchInterval: 30_000,
  });
  const list = channels.data?.data ?? [];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Sales channels</h2>
      <p>
        Connect a store to its Shopify shop or WooCommerce site: its orders waiting to ship come into Dakiya, and the
        tracking goes back to the store. The credentials are checked with the store before anything is saved, then kept
        sealed and never shown again.
      </p>
      <ErrorSummary error={channels.error} />
      {channels.isPending ? (
        <Loading what="your sales channels" />
      ) : list.length === 0 ? (
        <EmptyState title="No sales channels yet">
          <p>Connect a Shopify shop or a WooCommerce site below.</p>
        </EmptyState>
      ) : (
        <>
          <table className="data responsive">
            <caption>Your sales channels, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Platform</th>
                <th scope="col">Shop</th>
                <th scope="col">Store</th>
                <th scope="col">Status</th>
                <th scope="col">Last sync</th>
                <th scope="col">Last error</th>
                <th scope="col">Orders</th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.id}>
                  <td data-label="Platform">{channelName(c.channel)}</td>
                  <td data-label="Shop">{shopOf(c)}</td>
                  <td data-label="Store">{c.store_name ?? '—'}</td>
                  <td data-label="Status">
                    {c.status === 'connected' ? 'Connected' : `Disconnected ${formatDateTime(c.disconnected_at)}`}
                  </td>
                  <td data-label="Last sync">{c.last_synced_at ? formatDateTime(c.last_synced_at) : 'Not yet'}</td>
                  <td data-label="Last error">
                    {c.last_error ? `${formatDateTime(c.last_error_at)}: ${c.last_error}` : 'None'}
                  </td>
                  <td data-label="Orders">{countsWords(c.counts)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.map((c) => (
            <ChannelCard key={c.id} channel={c} />
          ))}
        </>
      )}
      <ConnectChannel />
    </section>
  );
}

function ChannelCard({ channel }: { channel: Channel }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [asking, setAsking] = useState(false);
  const [copied, setCopied] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['channels'] });
  const path = { params: { path: { id: channel.id } } };
  const sync = useMutation({
    mutationFn: () => unwrap(api.POST('/custom/api/v1/channels/{id}/sync', path)),
    onSuccess: refresh,
  });
  const disconnect = useMutation({
    mutationFn: () => unwrap(api.DELETE('/custom/api/v1/channels/{id}', path)),
    onSuccess: () => {
      setAsking(false);
      return refresh();
    },
  });
  const connected = channel.status === 'connected';
  const title = `${channelName(channel.channel)}: ${channel.shop_name}`;
  const copy = async () => {
    await navigator.clipboard.writeText(channel.webhook_url);
    setCopied(true);
  };
  return (
    <article className="card channel" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {connected ? (
        <>
          {channel.webhooks_registered ? (
            <p>Dakiya added the store's webhooks itself: the store sends these topics to the address below.</p>
          ) : (
            <>
              {channel.webhook_error && (
                <p role="note">The store would not take Dakiya's webhooks ({channel.webhook_error}).</p>
              )}
              <p>
                {WEBHOOK_PLACE[channel.channel] ?? 'In the store, add a webhook per topic to'} the address below.
                Topics:
              </p>
            </>
          )}
          <ul className="topics">
            {channel.webhook_topics.map((topic) => (
              <li key={topic}>
                <code>{topic}</code>
              </li>
            ))}
          </ul>
          <div className="copy-row">
            <Field
              label={`Webhook URL of ${channel.shop_name}`}
              value={channel.webhook_url}
              readOnly
              className="secret"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" className="secondary" onClick={copy}>
              Copy
            </button>
            {copied && <span role="status">Copied.</span>}
          </div>
          <ErrorSummary error={sync.error ?? disconnect.error} />
          <div className="actions">
            <button type="button" onClick={() => sync.mutate()} disabled={sync.isPending}>
              Sync now
            </button>
            {sync.isSuccess && !sync.isPending && <span role="status">Pulling the orders waiting to ship now.</span>}
            {!asking && (
              <button type="button" className="danger" onClick={() => setAsking(true)}>
                Disconnect
              </button>
            )}
          </div>
          {asking && (
            <fieldset className="confirm">
              <legend>Confirm disconnecting</legend>
              <p>Disconnect {channel.shop_name}? No more orders come in from it; the orders already imported stay.</p>
              <button
                type="button"
                className="danger"
                disabled={disconnect.isPending}
                onClick={() => disconnect.mutate()}
              >
                Yes, disconnect
              </button>
              <button type="button" className="secondary" onClick={() => setAsking(false)}>
                Keep it connected
              </button>
            </fieldset>
          )}
          <ChannelSettings channel={channel} />
        </>
      ) : (
        <p>Disconnected {formatDateTime(channel.disconnected_at)}: no more orders come in; those imported stay.</p>
      )}
      <ImportProblems channel={channel} />
    </article>
  );
}

/** The import settings' fields, filled with `current` (the channel's) or the defaults. */
function SettingsFields({ current, errors }: { current?: Channel; errors: Record<string, string> }) {
  const { warehouses } = useReferenceData();
  return (
    <>
      {warehouses.length > 0 && (
        <SelectField
          label={SETTING_LABELS.warehouse_id!}
          name="warehouse_id"
          defaultValue={current?.warehouse_id}
          options={warehouses.map((w) => ({ value: w.id, label: w.name }))}
          error={errors.warehouse_id}
        />
      )}
      <SelectField
        label={SETTING_LABELS.on_import!}
        name="on_import"
        defaultValue={current?.on_import ?? 'queue'}
        options={ON_IMPORT}
        error={errors.on_import}
      />
      <Field
        label={SETTING_LABELS.default_weight!}
        name="default_weight"
        inputMode="decimal"
        defaultValue={current?.default_weight ?? ''}
        hint="The weight an order ships at when an item has no weight in the store; without it such an order is refused until fixed."
        error={errors.default_weight}
      />
      {(['length', 'breadth', 'height'] as const).map((side) => (
        <Field
          key={side}
          label={SETTING_LABELS[side]!}
          name={side}
          inputMode="decimal"
          defaultValue={current?.[side] ?? ''}
          hint="10 by default"
          error={errors[side]}
        />
      ))}
      <label className="choice">
        <input type="checkbox" name="notify_customer" defaultChecked={current?.notify_customer ?? false} />
        The store e-mails the buyer when Dakiya tells it the order shipped (off: Dakiya's own e-mails tell the buyer)
      </label>
    </>
  );
}

function ChannelSettings({ channel }: { channel: Channel }) {
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<ApiError | undefined>();
  const save = useMutation({
    mutationFn: (body: SettingsBody) =>
      unwrap(api.PATCH('/custom/api/v1/channels/{id}', { params: { path: { id: channel.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['channels'] }),
  });
  const error = inFormWords(checked ?? save.error, labelOf(SETTING_LABELS));
  const errors = error instanceof ApiError ? error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { settings, problems } = readSettings(new FormData(event.currentTarget), true);
    const refusal = formProblems(problems);
    setChecked(refusal);
    if (refusal) save.reset();
    else save.mutate(settings);
  };
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-label={`Import settings of ${channel.shop_name}`}>
      <fieldset>
        <legend>Import settings</legend>
        <ErrorSummary error={error} />
        <SettingsFields current={channel} errors={errors} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            Save the settings
          </button>
          {save.isSuccess && !save.isPending && (
            <span role="status">Saved; the refused orders are imported again with them.</span>
          )}
        </div>
      </fieldset>
    </form>
  );
}

/** The store orders that could not be imported, why, and a retry once fixed in the store. */
function ImportProblems({ channel }: { channel: Channel }) {
  const queryClient = useQueryClient();
  const problems = useQuery({
    queryKey: ['channels', channel.id, 'refused'],
    queryFn: () =>
      unwrap(
        api.GET('/custom/api/v1/channels/{id}/orders', {
          params: { path: { id: channel.id }, query: { state: 'refused' } },
        }),
      ),
  });
  const retry = useMutation({
    mutationFn: (orderId: string) =>
      unwrap(
        api.POST('/custom/api/v1/channels/{id}/orders/{channel_order_id}/retry', {
          params: { path: { id: channel.id, channel_order_id: orderId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['channels'] }),
  });
  const rows = problems.data?.data ?? [];
  return (
    <>
      <h4>Import problems</h4>
      <ErrorSummary error={problems.error ?? retry.error} />
      {retry.isSuccess && !retry.isPending && (
        <p role="status">Order {retry.data.data.channel_order_name} is queued to be imported again.</p>
      )}
      {problems.isPending ? (
        <Loading what="the import problems" />
      ) : rows.length === 0 ? (
        <p>No import problems: every order seen came in.</p>
      ) : (
        <table className="data responsive">
          <caption>Orders of {channel.shop_name} that could not be imported</caption>
          <thead>
            <tr>
              <th scope="col">Store order</th>
              <th scope="col">Reason</th>
              <th scope="col">Fix in the store</th>
              <th scope="col">Last tried</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.channel_order_id}>
                <td data-label="Store order">{row.channel_order_name}</td>
                <td data-label="Reason">{row.reason ?? 'No reason recorded'}</td>
                <td data-label="Fix in the store">{row.fields?.join(', ') || '—'}</td>
                <td data-label="Last tried">{formatDateTime(row.updated_at)}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    className="secondary"
                    disabled={retry.isPending}
                    onClick={() => retry.mutate(row.channel_order_id)}
                    aria-label={`Retry ${row.channel_order_name}`}
                  >
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function ConnectChannel() {
  const queryClient = useQueryClient();
  const { stores } = useReferenceData();
  const [platform, setPlatform] = useState<Platform>('shopify');
  const [checked, setChecked] = useState<ApiError | undefined>();
  const [connected, setConnected] = useState<string | undefined>();
  const connect = useMutation({
    mutationFn: (body: ConnectBody) => unwrap(api.POST('/custom/api/v1/channels', { body })),
    onSuccess: (answer) => {
      setConnected(answer.data.shop_name);
      return queryClient.invalidateQueries({ queryKey: ['channels'] });
    },
  });
  const form = PLATFORMS[platform];
  const error = inFormWords(checked ?? connect.error, labelOf(CONNECT_LABELS));
  const errors = error instanceof ApiError ? error.fieldErrors() : {};
  const storeError = errors.store_id ?? errors.store_name;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const data = new FormData(element);
    setConnected(undefined);
    const { settings, problems } = readSettings(data, false);
    const refusal = formProblems(problems);
    setChecked(refusal);
    if (refusal) {
      connect.reset();
      return;
    }
    const storeId = String(data.get('store_id') ?? '');
    // Every credential goes, empty ones too: the API names each missing one.
    const body = {
      channel: platform,
      ...(storeId && { store_id: storeId }),
      ...Object.fromEntries(form.fields.map((f) => [f.name, String(data.get(f.name) ?? '').trim()])),
      ...settings,
    } as ConnectBody;
    connect.mutate(body, { onSuccess: () => element.reset() });
  };
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-label="Connect a sales channel">
      <h2>Connect a store</h2>
      <fieldset>
        <legend>Connect a sales channel</legend>
        <ErrorSummary error={error} />
        {connected && (
          <p className="notice" role="status">
            {connected} is connected: its orders waiting to ship are being pulled. Add its webhooks (above) so new
            orders come in at once.
          </p>
        )}
        <SelectField
          label="Platform"
          name="channel"
          value={platform}
          onChange={(event) => {
            setPlatform(event.target.value as Platform);
            setChecked(undefined);
            connect.reset();
          }}
          options={Object.entries(PLATFORMS).map(([value, p]) => ({ value, label: p.name }))}
        />
        <SelectField
          label="Store"
          name="store_id"
          options={stores.map((s) => ({ value: s.id, label: s.brand_name ?? s.store_name }))}
          error={storeError}
        />
        {form.fields.map((f) => (
          <Field
            key={`${platform}-${f.name}`}
            label={f.label}
            name={f.name}
            type={f.secret ? 'password' : 'text'}
            autoComplete="off"
            hint={f.hint}
            error={errors[f.name]}
          />
        ))}
        <SettingsFields errors={errors} />
        <div className="actions">
          <button type="submit" disabled={connect.isPending}>
            Connect {form.name}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
