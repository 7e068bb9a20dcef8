import type { ColumnHelper } from '@tanstack/react-table';
import type { PostBody, Shipment } from '../api/client';
import { SelectField } from '../ui';

// The shipments listing's risk view (docs/rto.md): filters on the RTO risk, the address checks,
// the order confirmation and COD to prepaid, and those attributes as columns.

type ListingBody = PostBody<'/custom/api/v1/shipments'>;

export interface RiskFilters {
  risk: '' | 'low' | 'medium' | 'high';
  address: '' | 'valid' | 'incomplete' | 'suspicious';
  confirmation: string;
  prepaid: string;
}
export const NO_RISK_FILTERS: RiskFilters = { risk: '', address: '', confirmation: '', prepaid: '' };

export function riskBody(f: RiskFilters): ListingBody {
  return {
    ...(f.risk && { rto_risk: f.risk }),
    ...(f.address && { address_validity: [f.address] }),
    ...(f.confirmation && { oc_all_outcomes: [f.confirmation] }),
    ...(f.prepaid && { cod_to_prepaid: [f.prepaid] }),
  };
}

const any = { value: '', label: 'Any' };

export function RiskFilterFields({ value, onChange }: { value: RiskFilters; onChange: (next: RiskFilters) => void }) {
  return (
    <>
      <SelectField
        label="RTO risk"
        value={value.risk}
        onChange={(e) => onChange({ ...value, risk: e.target.value as RiskFilters['risk'] })}
        options={[
          any,
          { value: 'high', label: 'High' },
          { value: 'medium', label: 'Medium' },
          { value: 'low', label: 'Low' },
        ]}
      />
      <SelectField
        label="Address"
        value={value.address}
        onChange={(e) => onChange({ ...value, address: e.target.value as RiskFilters['address'] })}
        options={[
          any,
          { value: 'valid', label: 'Valid' },
          { value: 'incomplete', label: 'Incomplete' },
          { value: 'suspicious', label: 'Suspicious' },
        ]}
      />
      <SelectField
        label="Order confirmation"
        value={value.confirmation}
        onChange={(e) => onChange({ ...value, confirmation: e.target.value })}
        options={[
          any,
          { value: 'pending', label: 'Awaiting the buyer' },
          { value: 'confirmed', label: 'Confirmed' },
          { value: 'cancelled', label: 'Cancelled by the buyer' },
          { value: 'no_response', label: 'No response' },
        ]}
      />
      <SelectField
        label="COD to prepaid"
        value={value.prepaid}
        onChange={(e) => onChange({ ...value, prepaid: e.target.value })}
        options={[any, { value: 'offered', label: 'Payment link sent' }, { value: 'paid', label: 'Paid' }]}
      />
    </>
  );
}

const capital = (s: string | null | undefined) => (s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : '—');

/** The risk attributes as columns, the reasons in each cell's title for a closer look. */
export function riskColumns(column: ColumnHelper<Shipment>) {
  return [
    column.accessor((s) => capital(s.attributes.rto_risk), {
      id: 'risk',
      header: 'RTO risk',
      cell: (c) => {
        const a = c.row.original.attributes;
        const reasons = (a.rto_risk_reasons ?? [])
          .map((r) => `${r.reason} ${r.points > 0 ? '+' : ''}${r.points}`)
          .join(', ');
        return (
          <span title={reasons || undefined}>
            {c.getValue()}
            {a.rto_risk_score !== null ? ` (${a.rto_risk_score})` : ''}
          </span>
        );
      },
    }),
    column.accessor((s) => capital(s.attributes.address_validity), {
      id: 'address',
      header: 'Address',
      cell: (c) => (
        <span title={(c.row.original.attributes.address_reasons ?? []).join(', ') || undefined}>{c.getValue()}</span>
      ),
    }),
    column.accessor((s) => capital(s.attributes.order_confirmation?.outcome), {
      id: 'confirmation',
      header: 'Confirmation',
    }),
    column.accessor((s) => capital(s.attributes.order_confirmation?.cod_to_prepaid), {
      id: 'prepaid',
      header: 'COD to prepaid',
    }),
  ];
}
