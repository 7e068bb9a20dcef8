import * as Tabs from '@radix-ui/react-tabs';
import { navigate, useLocation, useTitle } from '../router';
import { Charges, WeightDisputes } from './money-charges';
import { Discrepancies, Reconciliation, Receivables, Remittances } from './money-cod';
import { useReferenceData } from './reference';

/** The tabs, each with an address (/app/money?tab=…) so a reload or a shared link lands on it. */
const TABS = [
  { id: 'receivables', label: 'COD receivables', Panel: Receivables },
  { id: 'remittances', label: 'Remittances', Panel: Remittances },
  { id: 'reconciliation', label: 'Reconciliation', Panel: Reconciliation },
  { id: 'discrepancies', label: 'Discrepancies', Panel: Discrepancies },
  { id: 'charges', label: 'Shipping charges', Panel: Charges },
  { id: 'disputes', label: 'Weight disputes', Panel: WeightDisputes },
] as const;

/** Where the merchant's money is: cash couriers owe and paid, and what shipping costs. */
export function Money() {
  useTitle('Money');
  const { query } = useLocation();
  const tab = TABS.find((t) => t.id === query.get('tab')) ?? TABS[0];
  const couriers = useReferenceData().carriers.map((c) => ({ value: c.carrier_id, label: c.carrier_name }));
  return (
    <section className="money">
      <h1>Money</h1>
      <p>
        Cash on delivery that couriers collected and owe you, what they remitted (by bank reference, the UTR) and how
        each payout cycle adds up; what each shipment was charged, and the couriers' weight disputes. Amounts in rupees,
        exact to the paisa; days in India time.
      </p>
      <Tabs.Root value={tab.id} onValueChange={(id) => navigate(`/money?tab=${id}`, true)}>
        <Tabs.List className="tabs" aria-label="Money">
          {TABS.map((t) => (
            <Tabs.Trigger key={t.id} value={t.id} className="tab">
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Content key={t.id} value={t.id} className="tab-panel">
            {t.id === tab.id && <t.Panel couriers={couriers} />}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
