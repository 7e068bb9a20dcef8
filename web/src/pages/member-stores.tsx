import { useState } from 'react';
import { Ticks } from '../ui';

export interface StoreChoice {
  id: string;
  store_name: string;
  brand_name?: string | null;
}

/** A member's stores in words: every store, or the names of those they are limited to. */
export function storesInWords(ids: readonly string[] | null, stores: readonly StoreChoice[]): string {
  if (ids === null) return 'Every store';
  return ids.map((id) => stores.find((store) => store.id === id)?.store_name ?? id).join(', ');
}

/** The stores a member is limited to (a 3PL, a brand manager), as ticks: none ticked is every store. */
export function StoresPicker({
  stores,
  chosen,
  onChange,
  legend = 'Stores (none ticked: every store)',
  error,
}: {
  stores: readonly StoreChoice[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  legend?: string;
  error?: string;
}) {
  const options = stores.map((store) => ({ value: store.id, label: store.brand_name ?? store.store_name }));
  return <Ticks legend={legend} options={options} chosen={chosen} onChange={onChange} error={error} />;
}

/** A member's stores, changed in place: the ticks, then Save (none ticked: every store). */
export function MemberStoresEditor({
  email,
  current,
  stores,
  busy,
  onSave,
}: {
  email: string;
  current: readonly string[] | null;
  stores: readonly StoreChoice[];
  busy: boolean;
  onSave: (ids: string[] | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>([...(current ?? [])]);
  if (!open)
    return (
      <>
        {storesInWords(current, stores)}{' '}
        <button
          type="button"
          className="secondary"
          disabled={busy}
          aria-label={`Change the stores of ${email}`}
          onClick={() => setOpen(true)}
        >
          Change
        </button>
      </>
    );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave(chosen.length === 0 ? null : chosen);
        setOpen(false);
      }}
    >
      <StoresPicker stores={stores} chosen={chosen} onChange={setChosen} legend={`Stores of ${email}`} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          Save stores
        </button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
