import { EXAMPLE } from '../../http/examples.js';

// SPEC 4.5's orchestration body, filled in: a COD kurta from the Okhla warehouse to Koramangala.
const ORDER = {
  store_name: EXAMPLE.storeName,
  order_id: EXAMPLE.orderId,
  order_date: '2026-11-20 14:30',
  billing_customer_name: 'Priya',
  billing_last_name: 'Sharma',
  billing_address: '42, 5th Cross, Koramangala 4th Block',
  billing_city: 'Bengaluru',
  billing_pincode: '560034',
  billing_state: 'Karnataka',
  billing_country: 'India',
  billing_email: 'priya.sharma@example.in',
  billing_phone: '9123456780',
  shipping_is_billing: true,
  print_label: true,
  order_items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 1299, discount: 0, tax: 5, hsn: '6211' }],
  payment_method: 'COD',
  sub_total: 1299,
  cod_collectible: 1299,
  length: 20,
  breadth: 15,
  height: 10,
  weight: 0.5,
  warehouse_id: EXAMPLE.warehouseId,
};

export const ORDER_REQUESTS = {
  forwardOrder: ORDER,
  orchestration: { ...ORDER, order_id: 'ORD-10046', carrier_id: EXAMPLE.carrierId },
  assign: { shipment_id: EXAMPLE.shipmentId, carrier_id: '' },
  // The whole body again, keyed by order_id: the customer moved to the flat upstairs.
  update: { ...ORDER, billing_address: 'Flat 3B, 42, 5th Cross, Koramangala 4th Block', billing_phone: '9123456781' },
  cancel: { awbs: [EXAMPLE.awb] },
};

// Real answers to the request examples (ids replaced by the example ids).
export const ORDER_ANSWERS = {
  created: {
  "status": 1,
  "payload": {
    "order_id": "c2d4e6f8-0a1b-4c3d-8e5f-7a9b1c3d5e7f",
    "channel_order_id": "ORD-10045",
    "shipment_id": EXAMPLE.shipmentId,
    "status": "pending",
    "store_name": "acme-apparel",
    "zone": "zone_c",
    "applied_weight": 0.6,
    "cod": 1,
    "awb_code": null,
    "courier_company_id": null,
    "courier_name": null,
    "label_url": null,
    "track_url": null,
    "charges": null,
    "pickup_location_added": 1,
    "order_created": 1,
    "awb_generated": 0,
    "label_generated": 0,
    "pickup_generated": 0,
    "manifest_generated": 0,
    "pickup_scheduled_date": null,
    "pickup_booked_date": null,
    "expected_delivery_date": null,
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "manifest_url": null,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null
  }
},
  assigned: {
  "status": 1,
  "payload": {
    "order_id": "c2d4e6f8-0a1b-4c3d-8e5f-7a9b1c3d5e7f",
    "channel_order_id": "ORD-10045",
    "shipment_id": EXAMPLE.shipmentId,
    "status": "pending",
    "store_name": "acme-apparel",
    "zone": "zone_c",
    "applied_weight": 0.6,
    "cod": 1,
    "awb_code": "XBQ0000000001",
    "courier_company_id": "CARXPBS250G01",
    "courier_name": "Xpressbees 250 g",
    "label_url": `https://ship.acme.example/public/v1/labels/${EXAMPLE.shipmentId}?expires=${EXAMPLE.labelExpires}&signature=Lk3Jh5Gf7Ds9Ap1Zx2Cv4Bn6Mq8Wr0Ety-Ui_OpAsDf`,
    "track_url": "https://ship.acme.example/t/q2Xn8V0bTgK4mYc1Pz7wAa",
    "charges": {
      "forward_freight_charges": 78,
      "cod_charges": 30,
      "rto_freight_charges": 78,
      "total_forward_charges": 108,
      "frwd_charges": {
        "shipping_charges": "78.00",
        "cod_charges": "30.00",
        "dead_weight_billing": false
      },
      "rto_charges": {
        "rto_charges": "78.00"
      }
    },
    "pickup_location_added": 1,
    "order_created": 1,
    "awb_generated": 1,
    "label_generated": 1,
    "pickup_generated": 1,
    "manifest_generated": 0,
    "pickup_scheduled_date": "2026-11-20",
    "pickup_booked_date": "2026-11-20 12:00:00",
    "expected_delivery_date": "2026-11-26",
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "manifest_url": null,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null
  }
},
  booked: {
  "status": 1,
  "payload": {
    "order_id": "e1f3a5b7-c9d0-4e2f-a4b6-c8d0e2f4a6b8",
    "channel_order_id": "ORD-10046",
    "shipment_id": EXAMPLE.bookedShipmentId,
    "status": "pending",
    "store_name": "acme-apparel",
    "zone": "zone_c",
    "applied_weight": 0.6,
    "cod": 1,
    "awb_code": "SFX0000000001",
    "courier_company_id": "CARSHFXSTD001",
    "courier_name": "Shadowfax Standard",
    "label_url": `https://ship.acme.example/public/v1/labels/${EXAMPLE.bookedShipmentId}?expires=${EXAMPLE.labelExpires}&signature=${EXAMPLE.labelSignature}`,
    "track_url": "https://ship.acme.example/t/q2Xn8V0bTgK4mYc1Pz7wAa",
    "charges": {
      "forward_freight_charges": 82,
      "cod_charges": 29,
      "rto_freight_charges": 82,
      "total_forward_charges": 111,
      "frwd_charges": {
        "shipping_charges": "82.00",
        "cod_charges": "29.00",
        "dead_weight_billing": false
      },
      "rto_charges": {
        "rto_charges": "82.00"
      }
    },
    "pickup_location_added": 1,
    "order_created": 1,
    "awb_generated": 1,
    "label_generated": 1,
    "pickup_generated": 1,
    "manifest_generated": 0,
    "pickup_scheduled_date": "2026-11-20",
    "pickup_booked_date": "2026-11-20 12:00:00",
    "expected_delivery_date": "2026-11-25",
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "manifest_url": null,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null
  }
},
  updated: {
  "status": 1,
  "payload": {
    "order_id": "e1f3a5b7-c9d0-4e2f-a4b6-c8d0e2f4a6b8",
    "channel_order_id": "ORD-10046",
    "shipment_id": EXAMPLE.bookedShipmentId,
    "status": "pending",
    "store_name": "acme-apparel",
    "zone": "zone_c",
    "applied_weight": 0.6,
    "cod": 1,
    "awb_code": "SFX0000000001",
    "courier_company_id": "CARSHFXSTD001",
    "courier_name": "Shadowfax Standard",
    "label_url": `https://ship.acme.example/public/v1/labels/${EXAMPLE.bookedShipmentId}?expires=${EXAMPLE.labelExpires}&signature=${EXAMPLE.labelSignature}`,
    "track_url": "https://ship.acme.example/t/q2Xn8V0bTgK4mYc1Pz7wAa",
    "charges": {
      "forward_freight_charges": 82,
      "cod_charges": 29,
      "rto_freight_charges": 82,
      "total_forward_charges": 111,
      "frwd_charges": {
        "shipping_charges": "82.00",
        "cod_charges": "29.00",
        "dead_weight_billing": false
      },
      "rto_charges": {
        "rto_charges": "82.00"
      }
    },
    "pickup_location_added": 1,
    "order_created": 1,
    "awb_generated": 1,
    "label_generated": 1,
    "pickup_generated": 1,
    "manifest_generated": 0,
    "pickup_scheduled_date": "2026-11-20",
    "pickup_booked_date": "2026-11-20 12:00:00",
    "expected_delivery_date": "2026-11-25",
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "manifest_url": null,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null
  }
},
  cancelled: {
  "message": "1 of 1 shipment cancelled",
  "results": [
    {
      "awb": "SFX0000000001",
      "cancelled": true,
      "message": "Shipment cancelled"
    }
  ]
},
};
