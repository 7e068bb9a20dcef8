import type { ReturnAddress } from '../../base/db/schema.js';
import type { BookingRequest, ParcelItem } from '../../couriers/connector.js';
import type { WarehouseRow } from '../../tenancy/warehouses/warehouses.service.js';

const fullName = (first: string, last: string | null) => [first, last].filter(Boolean).join(' ');
const word = (value: string | boolean | undefined) => (typeof value === 'string' && value !== '' ? value : undefined);

export interface ReturnItem {
  name: string;
  sku: string;
  units: number;
  sellingPricePaise: number;
  qc: Record<string, string | boolean> | null;
}

/** An item as the courier gets it: its QC fields only on a return that goes with QC. */
function parcelItem(item: ReturnItem, qcApplied: boolean): ParcelItem {
  const qc = qcApplied && item.qc?.qc_enable === true ? item.qc : null;
  const image = word(qc?.qc_product_image);
  return {
    name: item.name,
    sku: item.sku,
    units: item.units,
    pricePaise: item.sellingPricePaise,
    qc:
      qc && image
        ? {
            imageUrl: image,
            ...(word(qc.qc_product_name) && { productName: word(qc.qc_product_name) }),
            ...(word(qc.qc_brand) && { brand: word(qc.qc_brand) }),
            ...(word(qc.qc_size) && { size: word(qc.qc_size) }),
            ...(word(qc.qc_color) && { color: word(qc.qc_color) }),
          }
        : null,
  };
}

/** A return as a courier booking: collected from the customer, carried to the destination (a warehouse, whose name is the pickup location). */
export function returnBookingRequest(
  reference: string,
  parcel: {
    merchantOrderId: string;
    orderDate: Date;
    subTotalPaise: number;
    weightGrams: number;
    lengthCm: number;
    breadthCm: number;
    heightCm: number;
  },
  items: ReturnItem[],
  from: ReturnAddress,
  to: ReturnAddress & { locationName: string },
  qcApplied: boolean,
): BookingRequest {
  const address = (a: ReturnAddress) => ({
    name: fullName(a.name, a.last_name),
    address: [a.address, a.address_2].filter(Boolean).join(', '),
    city: a.city,
    state: a.state,
    pincode: a.pincode,
    phone: a.phone,
  });
  return {
    reference,
    journey: 'return',
    merchantOrderId: parcel.merchantOrderId,
    tags: [],
    paymentMethod: 'prepaid',
    codPaise: 0,
    totalPaise: parcel.subTotalPaise,
    weightGrams: parcel.weightGrams,
    lengthCm: parcel.lengthCm,
    breadthCm: parcel.breadthCm,
    heightCm: parcel.heightCm,
    productsDescription: items
      .map((item) => item.name)
      .join(', ')
      .slice(0, 200),
    quantity: items.reduce((sum, item) => sum + item.units, 0),
    // Delhivery's reverse pickup: the customer is the consignee it collects from, the warehouse its "return" address.
    consignee: address(from),
    pickup: { ...address(to), locationName: to.locationName },
    orderDate: parcel.orderDate,
    items: items.map((item) => parcelItem(item, qcApplied)),
  };
}

/** A warehouse as a return's destination address: where a return goes when no shipping_* is sent. */
export function warehouseAddress(warehouse: WarehouseRow): ReturnAddress {
  return {
    name: warehouse.contactPerson ?? warehouse.name,
    last_name: null,
    address: warehouse.streetAddress,
    address_2: null,
    city: warehouse.city,
    state: warehouse.state,
    country: warehouse.country,
    pincode: warehouse.pincode,
    email: warehouse.email,
    phone: warehouse.phone,
  };
}
