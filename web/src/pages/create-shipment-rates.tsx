import { api, type PostBody, unwrap } from '../api/client';
import { formatDate, formatRupees } from '../format';

// The order form's rate comparison: the couriers' quotes for the parcel (or its boxes) beside the
// courier the account's allocation rules choose, one of which the merchant may pick to book with.

export type OrderBody = PostBody<'/custom/api/v1/forward-order-orchestration'>;
type RatesAnswer = Awaited<ReturnType<typeof quote>>;
/** A forward quote (the form asks only forward ones). */
export type Quote = Extract<RatesAnswer['result']['serviceable_couriers'][number], { is_fast: boolean }>;
type Preview = Awaited<ReturnType<typeof preview>>['data'];

export const quote = (body: PostBody<'/custom/api/v1/rates'>) => unwrap(api.POST('/custom/api/v1/rates', { body }));
export const preview = (body: OrderBody) =>
  unwrap(
    api.POST('/custom/api/v1/allocation/preview', { body: body as PostBody<'/custom/api/v1/allocation/preview'> }),
  );
/** What the rate comparison shows: the couriers' quotes, and the courier the account's rules choose. */
export interface Comparison {
  quotes: Quote[];
  rules: Preview | undefined;
}

/** The rules' choice, or a courier the merchant picked from the comparison: booking one is an explicit choice. */
export const BY_RULES = '';

export function CourierChoice({
  comparison,
  carrier,
  setCarrier,
}: {
  comparison: Comparison;
  carrier: string;
  setCarrier: (carrier: string) => void;
}) {
  const { quotes, rules } = comparison;
  const cheapest = quotes.reduce<Quote | undefined>(
    (best, q) => (!best || q.charges.total_forward_charges < best.charges.total_forward_charges ? q : best),
    undefined,
  );
  const fastest = quotes.reduce<Quote | undefined>(
    (best, q) => (!best || q.expected_delivery.delivery < best.expected_delivery.delivery ? q : best),
    undefined,
  );
  if (quotes.length === 0)
    return <p role="status">No courier serves this lane for this parcel; check the pincode or the payment method.</p>;
  return (
    <fieldset className="courier-choice">
      <legend>Courier</legend>
      <label className="choice">
        <input type="radio" name="carrier" checked={carrier === BY_RULES} onChange={() => setCarrier(BY_RULES)} />{' '}
        {rules ? (
          <span>
            As your allocation rules choose: <strong>{rules.courier_name}</strong> (
            {rules.allocation?.rule ? `rule “${rules.allocation.rule}”: ` : 'no rule matches: '}
            {rules.allocation?.reason ?? 'the cheapest'})
          </span>
        ) : (
          <span>As your allocation rules choose</span>
        )}
      </label>
      <table className="data rates">
        <caption>Couriers for this parcel</caption>
        <thead>
          <tr>
            <th scope="col">Book instead</th>
            <th scope="col">Courier</th>
            <th scope="col">Freight</th>
            <th scope="col">COD charge</th>
            <th scope="col">Total</th>
            <th scope="col">Delivery by</th>
          </tr>
        </thead>
        <tbody>
          {quotes.map((q) => (
            <tr key={q.carrier_id}>
              <td data-label="Book instead">
                <input
                  type="radio"
                  name="carrier"
                  aria-label={`Ship with ${q.carrier_name}`}
                  checked={carrier === q.carrier_id}
                  onChange={() => setCarrier(q.carrier_id)}
                />
              </td>
              <td data-label="Courier">
                {q.carrier_name}
                {q.carrier_id === rules?.carrier_id && <span className="badge">Your rules' choice</span>}
                {q === cheapest && <span className="badge">Cheapest</span>}
                {q === fastest && <span className="badge">Fastest</span>}
              </td>
              <td data-label="Freight">{formatRupees(q.charges.forward_freight_charges)}</td>
              <td data-label="COD charge">{formatRupees(q.charges.cod_charges)}</td>
              <td data-label="Total">{formatRupees(q.charges.total_forward_charges)}</td>
              <td data-label="Delivery by">{formatDate(q.expected_delivery.delivery)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </fieldset>
  );
}
