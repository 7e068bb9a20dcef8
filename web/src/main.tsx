import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client';
import { Join } from './join';
import { Layout, SCREENS } from './layout';
import { ResetPassword } from './reset';
import { AllocationRules } from './pages/allocation';
import { ApiKeys } from './pages/api-keys';
import { BulkImport } from './pages/bulk-import';
import { Channels } from './pages/channels';
import { CourierConnections } from './pages/couriers';
import { CreateShipment } from './pages/create-shipment';
import { Money } from './pages/money';
import { NdrQueue } from './pages/ndr';
import { Members } from './pages/members';
import { Notifications } from './pages/notifications';
import { Paperwork } from './pages/paperwork';
import { Privacy } from './pages/privacy';
import { Overview } from './pages/overview';
import { Reports } from './pages/reports';
import { CreateReturn } from './pages/return-create';
import { ReturnRequests } from './pages/return-requests';
import { Returns } from './pages/returns';
import { Settings } from './pages/settings';
import { AuditLog } from './pages/audit-log';
import { ShipmentPage } from './pages/shipment';
import { Shipments } from './pages/shipments';
import { Webhooks } from './pages/webhooks';
import { YourSignIn } from './pages/your-sign-in';
import { useCan, useStoreLimited } from './permissions';
import { navigate, useLocation } from './router';
import { SessionGate, useSession } from './session';
import { ReadOnlyUnless } from './ui';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will answer the same again; only a failure to reach the server is worth a retry.
    queries: { retry: (count, error) => !(error instanceof ApiError) && count < 2, staleTime: 10_000 },
  },
});

function Routes() {
  const { path, query } = useLocation();
  const { session } = useSession();
  const can = useCan();
  // The settings screens a member may read but not change: shown with their controls disabled.
  const writable = (page: ReactNode) => (
    <ReadOnlyUnless allowed={can('settings:write')} need="settings:write">
      {page}
    </ReadOnlyUnless>
  );
  const limited = useStoreLimited();
  useEffect(() => {
    if (path === '/') navigate('/overview', true);
  }, [path]);
  // An owner the account requires two-factor of sets it up before anything else.
  if (session.two_factor_setup_required) return <YourSignIn />;
  const everyStore = SCREENS.find(
    (screen) => screen.everyStore && (path === screen.to || path.startsWith(`${screen.to}/`)),
  );
  if (limited && everyStore)
    return (
      <section>
        <h1>{everyStore.label}</h1>
        <p className="notice">
          This screen covers every store of the account, and your access is limited to some of them. Your shipments are
          under Shipments.
        </p>
      </section>
    );
  const shipment = /^\/shipments\/([^/]+)$/.exec(path);
  if (shipment) return <ShipmentPage id={decodeURIComponent(shipment[1]!)} />;
  // Keyed by the address's view, so a link to another view (or to all) starts the list afresh.
  if (path === '/shipments') return <Shipments key={query.get('view') ?? ''} />;
  if (path === '/create') return <CreateShipment />;
  if (path === '/bulk') return <BulkImport />;
  if (path === '/overview') return <Overview />;
  if (path === '/ndr') return <NdrQueue />;
  if (path === '/reports') return <Reports />;
  if (path === '/money') return <Money />;
  if (path === '/returns') return <Returns />;
  if (path === '/returns/new') return <CreateReturn />;
  if (path === '/returns/requests') return <ReturnRequests />;
  if (path === '/settings') return writable(<Settings />);
  if (path === '/settings/webhooks') return writable(<Webhooks />);
  if (path === '/settings/api-keys') return writable(<ApiKeys />);
  if (path === '/settings/notifications') return writable(<Notifications />);
  if (path === '/settings/couriers') return writable(<CourierConnections />);
  if (path === '/settings/allocation') return writable(<AllocationRules />);
  if (path === '/settings/channels') return writable(<Channels />);
  if (path === '/settings/paperwork') return writable(<Paperwork />);
  if (path === '/settings/privacy') return <Privacy />;
  if (path === '/settings/members') return <Members />;
  if (path === '/settings/audit-log') return <AuditLog />;
  if (path === '/sign-in') return <YourSignIn />;
  if (path === '/') return null;
  return (
    <section>
      <h1>Page not found</h1>
      <p>There is no screen at this address; use the navigation above.</p>
    </section>
  );
}

/** The panel behind its sign-in; an invitation's link opens before any session. */
function Panel() {
  const { path } = useLocation();
  if (path === '/join') return <Join />;
  if (path === '/reset') return <ResetPassword />;
  return (
    <SessionGate>
      <Layout>
        <Routes />
      </Layout>
    </SessionGate>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Panel />
    </QueryClientProvider>
  </StrictMode>,
);
