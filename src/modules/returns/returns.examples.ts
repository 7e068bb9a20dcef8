import { EXAMPLE } from '../../http/examples.js';

// Real answers to the request examples (ids replaced by the example ids).
export const RETURN_ANSWERS = {
  created: {
  "status": 1,
  "payload": {
    "order_created": 1,
    "awb_generated": 0,
    "pickup_generated": 0,
    "pickup_scheduled_date": null,
    "order_id": "RET-10045",
    "return_id": EXAMPLE.returnId,
    "shipment_id": "f0e2d4c6-b8a9-4c7e-9d5f-3b1a2c4e6f80",
    "status": "return_requested",
    "zone": "zone_c",
    "awb_code": null,
    "courier_company_id": null,
    "courier_name": null,
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "applied_weight": 0.5,
    "cod": 0,
    "is_return": 1,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null,
    "expected_delivery_date": null,
    "charges": null,
    "qc_enabled": 0,
    "qc_message": null,
    "forward_shipment": null
  }
},
  booked: {
  "status": 1,
  "payload": {
    "order_created": 1,
    "awb_generated": 1,
    "pickup_generated": 1,
    "pickup_scheduled_date": "2026-11-20",
    "order_id": "RET-10045",
    "return_id": EXAMPLE.returnId,
    "shipment_id": "f0e2d4c6-b8a9-4c7e-9d5f-3b1a2c4e6f80",
    "status": "return_pickup_scheduled",
    "zone": "zone_c",
    "awb_code": "SFX0000000002",
    "courier_company_id": "CARSHFXSTD001",
    "courier_name": "Shadowfax Standard",
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "applied_weight": 0.5,
    "cod": 0,
    "is_return": 1,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null,
    "expected_delivery_date": "2026-11-25",
    "charges": {
      "reverse_charges": "60.00",
      "qc": "12.00",
      "qc_leeway": "0.00",
      "dead_weight_billing": true,
      "platform_fee": 0,
      "total_return_charges": 72
    },
    "qc_enabled": 1,
    "qc_message": null,
    "forward_shipment": null
  }
},
  orchestrated: {
  "status": 1,
  "payload": {
    "order_created": 1,
    "awb_generated": 1,
    "pickup_generated": 1,
    "pickup_scheduled_date": "2026-11-20",
    "order_id": "RET-10046",
    "return_id": "b7d9f1a3-c5e7-4f90-a2b4-c6d8e0f2a4b6",
    "shipment_id": "a9c1e3f5-0b2d-4e6f-8a0c-2e4f6a8c0e2f",
    "status": "return_pickup_scheduled",
    "zone": "zone_c",
    "awb_code": "SFX0000000003",
    "courier_company_id": "CARSHFXSTD001",
    "courier_name": "Shadowfax Standard",
    "assigned_date_time": {
      "date": "2026-11-20T12:00:00.000+05:30",
      "timezone_type": 3,
      "timezone": "Asia/Kolkata"
    },
    "applied_weight": 0.5,
    "cod": 0,
    "is_return": 1,
    "routing_code": null,
    "rto_routing_code": null,
    "pickup_token_number": null,
    "expected_delivery_date": "2026-11-25",
    "charges": {
      "reverse_charges": "60.00",
      "qc": "12.00",
      "qc_leeway": "0.00",
      "dead_weight_billing": true,
      "platform_fee": 0,
      "total_return_charges": 72
    },
    "qc_enabled": 1,
    "qc_message": null,
    "forward_shipment": null
  }
},
  listed: {
  "data": [
    {
      "id": "b7d9f1a3-c5e7-4f90-a2b4-c6d8e0f2a4b6",
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
  "meta": {
    "current_page": 1,
    "per_page": 1,
    "total": 2,
    "next_search_after": [
      "1795156200000",
      "b7d9f1a3-c5e7-4f90-a2b4-c6d8e0f2a4b6"
    ]
  }
},
};
