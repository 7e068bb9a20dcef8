import { useId } from 'react';
import { formatRupees } from '../format';
import { Field } from '../ui';
import {
  type BoxDraft,
  boxesWeight,
  boxUnitsLabel,
  emptyBox,
  type ItemDraft,
  MAX_BOXES,
  orderLabel,
} from './create-shipment-checks';

// What the order form's parcel holds: its items, and the boxes of an order that ships in several
// (Dakiya's `packages`, docs/paperwork.md "Multi-piece shipments"), each error beside its input.

type Errors = Record<string, string>;

export const emptyItem = (): ItemDraft => ({ name: '', sku: '', units: '1', price: '' });

export function ItemsFieldset({
  items,
  setItems,
  subTotal,
  errors,
}: {
  items: ItemDraft[];
  setItems: (items: ItemDraft[]) => void;
  subTotal: number;
  errors: Errors;
}) {
  const edit = (i: number, change: Partial<ItemDraft>) =>
    setItems(items.map((x, j) => (j === i ? { ...x, ...change } : x)));
  return (
    <fieldset>
      <legend>Items</legend>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and only the last is removed
        <div className="item-row" key={i}>
          <Field
            label={`Item ${i + 1} name`}
            value={item.name}
            onChange={(e) => edit(i, { name: e.target.value })}
            error={errors[`order_items.${i}.name`]}
          />
          <Field
            label={`Item ${i + 1} SKU`}
            value={item.sku}
            onChange={(e) => edit(i, { sku: e.target.value })}
            error={errors[`order_items.${i}.sku`]}
          />
          <Field
            label={`Item ${i + 1} units`}
            inputMode="numeric"
            value={item.units}
            onChange={(e) => edit(i, { units: e.target.value })}
            error={errors[`order_items.${i}.units`]}
          />
          <Field
            label={`Item ${i + 1} price (₹)`}
            inputMode="decimal"
            value={item.price}
            onChange={(e) => edit(i, { price: e.target.value })}
            error={errors[`order_items.${i}.selling_price`]}
          />
        </div>
      ))}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => setItems([...items, emptyItem()])}>
          Add item
        </button>
        {items.length > 1 && (
          <button type="button" className="secondary" onClick={() => setItems(items.slice(0, -1))}>
            Remove last item
          </button>
        )}
      </div>
      <p>Order value: {formatRupees(subTotal)}</p>
    </fieldset>
  );
}

/** The order's package: its one box, or with boxes, their total weight and the consignment's size. */
export function PackageFieldset({ boxes, errors }: { boxes: BoxDraft[]; errors: Errors }) {
  return (
    <fieldset>
      <legend>Package</legend>
      {boxes.length > 0 ? (
        // The order weighs its boxes' total; typed here it could only disagree with them. (Keyed: a
        // shown total and a typed weight are two inputs, not one changing from controlled to not.)
        <Field
          key="total"
          label="Weight (kg)"
          readOnly
          value={Number.isNaN(boxesWeight(boxes)) ? '' : String(boxesWeight(boxes))}
          hint="The boxes' total"
          error={errors.weight ?? errors.dead_weight}
        />
      ) : (
        <Field
          key="typed"
          label="Weight (kg)"
          name="weight"
          inputMode="decimal"
          defaultValue="0.5"
          error={errors.weight ?? errors.dead_weight}
        />
      )}
      <Field label="Length (cm)" name="length" inputMode="decimal" defaultValue="20" error={errors.length} />
      <Field
        label="Breadth (cm)"
        name="breadth"
        inputMode="decimal"
        defaultValue="15"
        error={errors.breadth ?? errors.width}
      />
      <Field label="Height (cm)" name="height" inputMode="decimal" defaultValue="10" error={errors.height} />
      {boxes.length > 0 && (
        <p className="hint">With several boxes, the size of the whole consignment; each box is charged on its own.</p>
      )}
    </fieldset>
  );
}

const SIDES = ['weight', 'length', 'breadth', 'height'] as const;

/**
 * The boxes of an order in several (2 to 20): each box's weight and size and, when the merchant
 * says which items go where, its units of each item. None: the order ships in the package above.
 */
export function BoxesFieldset({
  boxes,
  setBoxes,
  items,
  byItem,
  setByItem,
  errors,
}: {
  boxes: BoxDraft[];
  setBoxes: (boxes: BoxDraft[]) => void;
  items: ItemDraft[];
  byItem: boolean;
  setByItem: (byItem: boolean) => void;
  errors: Errors;
}) {
  const errorId = useId();
  const edit = (b: number, change: Partial<BoxDraft>) =>
    setBoxes(boxes.map((x, j) => (j === b ? { ...x, ...change } : x)));
  const setUnits = (b: number, i: number, value: string) =>
    edit(b, { units: items.map((_, j) => (j === i ? value : (boxes[b]!.units[j] ?? ''))) });
  const total = boxesWeight(boxes);
  return (
    <fieldset aria-describedby={errors.packages ? errorId : undefined}>
      <legend>Boxes</legend>
      {boxes.length === 0 ? (
        <p className="hint">
          The order ships in one box, the package above. In several boxes, each box gets its own AWB and label, and is
          charged on its own weight and size.
        </p>
      ) : (
        <>
          {boxes.map((box, b) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: boxes are edited in place and only the last is removed
            <div className="item-row" key={b}>
              {SIDES.map((side) => (
                <Field
                  key={side}
                  label={orderLabel(`packages.${b}.${side}`)!}
                  inputMode="decimal"
                  value={box[side]}
                  onChange={(e) => edit(b, { [side]: e.target.value } as Partial<BoxDraft>)}
                  error={errors[`packages.${b}.${side}`]}
                />
              ))}
              {byItem &&
                items.map((item, i) => (
                  <Field
                    // biome-ignore lint/suspicious/noArrayIndexKey: an item is known by its place in the order
                    key={`item-${i}`}
                    label={boxUnitsLabel(b, i)}
                    inputMode="numeric"
                    value={box.units[i] ?? ''}
                    hint={item.sku || item.name || undefined}
                    onChange={(e) => setUnits(b, i, e.target.value)}
                    error={
                      errors[`packages.${b}.items.${i}.units`] ??
                      errors[`packages.${b}.items.${i}.sku`] ??
                      (i === 0 ? errors[`packages.${b}.items`] : undefined)
                    }
                  />
                ))}
            </div>
          ))}
          <label className="choice">
            <input type="checkbox" checked={byItem} onChange={(e) => setByItem(e.target.checked)} /> Say which items go
            in each box (otherwise each box's label lists every item)
          </label>
          <p>
            {Number.isNaN(total)
              ? "The order's weight is the boxes' total."
              : `The order's weight is the boxes' total: ${total} kg.`}
          </p>
        </>
      )}
      {errors.packages && (
        <small id={errorId} className="field-error">
          {errors.packages}
        </small>
      )}
      <div className="actions">
        {boxes.length === 0 ? (
          <button type="button" className="secondary" onClick={() => setBoxes([emptyBox(), emptyBox()])}>
            Ship in several boxes
          </button>
        ) : (
          <>
            {boxes.length < MAX_BOXES && (
              <button type="button" className="secondary" onClick={() => setBoxes([...boxes, emptyBox()])}>
                Add box
              </button>
            )}
            {boxes.length > 2 && (
              <button type="button" className="secondary" onClick={() => setBoxes(boxes.slice(0, -1))}>
                Remove last box
              </button>
            )}
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setBoxes([]);
                setByItem(false);
              }}
            >
              Ship in one box
            </button>
          </>
        )}
      </div>
    </fieldset>
  );
}
