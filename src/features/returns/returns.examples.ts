import { EXAMPLE } from '../../http/examples.js';
import { ASSIGNED_DATE_TIME, NO_ROUTING } from '../orders/orders.examples.js';
import { firstPageOfTwo } from '../../readers/shipments/shipments.examples.js';

// Real answers to the request examples (ids replaced by the example ids), each built on the one
// before: created, then a courier booked onto it.
const CREATED = {
  order_created: 1,
  awb_generated: 0,
  pickup_generated: 0,
  pickup_scheduled_date: null,
  order_id: 'RET-10045',
  return_id: EXAMPLE.returnId,
  shipment_id: 'f0e2d4c6-b8a9-4c7e-9d5f-3b1a2c4e6f80',
  status: 'return_requested',
  zone: 'zone_c',
  awb_code: null,
  courier_company_id: null,
  courier_name: null,
  assigned_date_time: ASSIGNED_DATE_TIME,
  applied_weight: 0.5,
  cod: 0,
  is_return: 1,
  ...NO_ROUTING,
  expected_delivery_date: null,
  charges: null,
  qc_enabled: 0,
  qc_message: null,
  forward_shipment: null,
};

/** The return the orchestration example makes, which the listing example lists. */
const ORCHESTRATED_ID = 'b7d9f1a3-c5e7-4f90-a2b4-c6d8e0f2a4b6';

/** What booking a QC-capable courier adds to a return's answer. */
const booked = (awb: string) => ({
  awb_generated: 1,
  pickup_generated: 1,
  pickup_scheduled_date: '2026-11-20',
  status: 'return_pickup_scheduled',
  awb_code: awb,
  courier_company_id: EXAMPLE.carrierId,
  courier_name: 'Shadowfax Standard',
  expected_delivery_date: '2026-11-25',
  charges: { reverse_charges: '60.00', qc: '12.00', qc_leeway: '0.00', dead_weight_billing: true, platform_fee: 0, total_return_charges: 72 },
  qc_enabled: 1,
});

export const RETURN_ANSWERS = {
  created: { status: 1, payload: CREATED },
  booked: { status: 1, payload: { ...CREATED, ...booked('SFX0000000002') } },
  orchestrated: {
    status: 1,
    payload: {
      ...CREATED,
      order_id: 'RET-10046',
      return_id: ORCHESTRATED_ID,
      shipment_id: 'a9c1e3f5-0b2d-4e6f-8a0c-2e4f6a8c0e2f',
      ...booked('SFX0000000003'),
    },
  },
  listed: {
  "data": [
    {
      "id": ORCHESTRATED_ID,
      "type": "return",
      "attributes": {
        "tracking_number": "SFX0000000003",
        "status": "return_pickup_scheduled",
        "sub_status": null,
        "qc_enabled": true,
        "qc_status": null,
        "qc_reason": null,
        "created_at": "2026-11-20T06:30:00.000Z",
        "updated_at": "2026-11-20T06:30:00.000Z",
        "picked_up_at": null,
        "delivered_at": null,
        "cancelled_at": null,
        "shipment_id": "a9c1e3f5-0b2d-4e6f-8a0c-2e4f6a8c0e2f",
        "warehouse_id": EXAMPLE.warehouseId,
        "total_price": 499,
        "is_cod": false,
        "zone": "zone_c",
        "applied_weight": {
          "value": 500,
          "metric_unit": "g"
        },
        "carrier": {
          "id": "CARSHFXSTD001",
          "name": "Shadowfax Standard"
        },
        "order": {
          "order_date": "2026-11-20T09:00:00.000Z",
          "display_id": "RET-10046",
          "channel_id": null
        },
        "forward_shipment_id": null,
        "items": [
          {
            "id": "e8c09310-e1a4-4c9a-91b6-523224b27bf1",
            "quantity": 1,
            "price": 499,
            "name": "Cotton Kurta",
            "sku": "KURTA-M-BLUE",
            "qc_enable": true
          }
        ],
        "pickup_address": {
          "name": "Asha Menon",
          "phone": "9123456780",
          "city": "Mumbai",
          "state": "Maharashtra",
          "zip": "400001"
        },
        "shipping_address": {
          "name": "Ravi Kumar",
          "phone": "9876543210",
          "city": "New Delhi",
          "state": "Delhi",
          "zip": "110020"
        },
        "tracking_details": []
      }
    }
  ],
  "meta": firstPageOfTwo(ORCHESTRATED_ID)
},
};
