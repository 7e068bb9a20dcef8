import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Loading } from '../ui';
import { OwnCourierCredentials } from './courier-credentials';
import { KeptScans } from './kept-scans';
import { SettingsNav } from './settings-nav';

/** How Dakiya reaches each connector's couriers, in a merchant's words. */
const CONNECTORS: Record<string, string> = {
  push: 'Push: the courier sends its scans to Dakiya',
  sandbox: 'Sandbox: simulated, test bookings',
  delhivery: "Delhivery's API",
  ekart: "Ekart's API",
  xpressbees: "Xpressbees' API",
  shadowfax: "Shadowfax's API",
};

/**
 * How a service is connected, in words. A courier API connector booking test bookings talks to a
 * local simulator of that API (npm run demo), not to the courier.
 */
function connectorWords(c: { connector: string; test_bookings: boolean }): string {
  const words = CONNECTORS[c.connector] ?? c.connector;
  return c.test_bookings && c.connector !== 'sandbox' && c.connector !== 'push'
    ? `Simulator of ${words}: test bookings`
    : words;
}

/** The courier services the account books with, how each is connected and how its calls went lately. */
export function CourierConnections() {
  useTitle('Courier connections');
  const connections = useQuery({
    queryKey: ['courier-connections'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/courier-connections')),
    // Health moves with every call the server makes: worth a fresh look while the page is open.
    refetchInterval: 30_000,
  });
  const rows = connections.data?.data ?? [];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Courier connections</h2>
      <p>
        Every courier service you can book with. The server's operator connects couriers (the courier catalogue and
        their API credentials); your own contract with a courier replaces the server's credentials for your parcels
        (below). The health is the latest answered call and latest failure made with the credentials your parcels use,
        over every server process.
      </p>
      <ErrorSummary error={connections.error} />
      {connections.isPending ? (
        <Loading what="the courier connections" />
      ) : rows.length === 0 ? (
        <EmptyState title="No courier services">
          <p>The server's courier catalogue lists none: ask its operator to set COURIERS_FILE.</p>
        </EmptyState>
      ) : (
        <table className="data responsive">
          <caption>Courier services and their connections</caption>
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Connector</th>
              <th scope="col">Credentials</th>
              <th scope="col">Last answered call</th>
              <th scope="col">Last failure</th>
              <th scope="col">Token expires</th>
              <th scope="col">Kept scans</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.carrier_id}>
                <td data-label="Service">
                  {c.name}
                  {c.test_bookings && <span className="badge">Test bookings</span>}
                </td>
                <td data-label="Connector">{connectorWords(c)}</td>
                <td data-label="Credentials">
                  {c.credentials === 'account'
                    ? `Your own (set ${formatDateTime(c.credentials_updated_at)})`
                    : c.credentials === 'configured'
                      ? "The server's"
                      : 'Not needed'}
                </td>
                {c.health ? (
                  <>
                    <td data-label="Last answered call">
                      {c.health.last_success_at ? formatDateTime(c.health.last_success_at) : 'None yet'}
                    </td>
                    <td data-label="Last failure">
                      {c.health.last_error_at
                        ? `${formatDateTime(c.health.last_error_at)}: ${c.health.last_error ?? 'no reason recorded'}`
                        : 'None'}
                    </td>
                    <td data-label="Token expires">
                      {c.health.token_expires_at ? formatDateTime(c.health.token_expires_at) : 'No token'}
                    </td>
                  </>
                ) : (
                  <td data-label="Health" colSpan={3}>
                    Dakiya does not call this courier; it posts its scans to Dakiya.
                  </td>
                )}
                <td data-label="Kept scans">
                  {c.kept_scans === 0 ? 'None' : <a href="#kept-scans">{c.kept_scans} to look at</a>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <KeptScans names={new Map(rows.map((c) => [c.carrier_id, c.name]))} />
      <OwnCourierCredentials
        connectors={[...new Set(rows.map((c) => c.connector))]}
        own={[...new Set(rows.filter((c) => c.credentials === 'account').map((c) => c.connector))]}
      />
    </section>
  );
}
