import { EXAMPLE } from '../../http/examples.js';
import type { ReturnPolicyBody } from './return-policy.schemas.js';
import type { CreateReturnRequestInput } from './return-requests.schemas.js';
import type { ReturnRequestView } from './return-requests.service.js';

export const RETURN_POLICY_EXAMPLE: ReturnPolicyBody = {
  window_days: 7,
  reasons: ['size_issue', 'damaged', 'wrong_item', 'not_as_described', 'quality_issue'],
  non_returnable_skus: ['SOCKS-3PK'],
  non_returnable_categories: ['Innerwear', 'Jewellery'],
  refund_deduction_percent: 10,
  return_shipping_fee: 60,
  refund_release: 'warehouse',
  store_credit: true,
  auto_rules: [
    { action: 'reject', message: 'Please write to us about this return.', when: { buyer_returns_min: 5 } },
    { action: 'approve', when: { reasons: ['damaged', 'wrong_item'], order_value_max: 1500 } },
  ],
};

export const RETURN_REQUEST_EXAMPLE: CreateReturnRequestInput = {
  shipment_id: EXAMPLE.deliveredShipmentId,
  items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
  reason: 'size_issue',
  comment: 'Too tight at the shoulders',
  resolution: 'exchange',
  exchange_for: 'Size L',
  language: 'hi',
};

export const RETURN_REQUEST_ANSWER: ReturnRequestView = {
  id: EXAMPLE.returnRequestId,
  shipment_id: RETURN_REQUEST_EXAMPLE.shipment_id,
  order_id: '2a4b6c8d-1e3f-4a5b-8c7d-9e0f1a2b3c4d',
  store_id: EXAMPLE.storeId,
  status: 'pending',
  items: [{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 1 }],
  reason: 'size_issue',
  comment: 'Too tight at the shoulders',
  resolution: 'exchange',
  exchange_for: 'Size L',
  refund_to: null,
  pickup_address: {
    name: 'Asha',
    last_name: 'Menon',
    address: '12 Marine Drive',
    address_2: null,
    city: 'Mumbai',
    state: 'Maharashtra',
    country: 'India',
    pincode: '400001',
    email: 'asha@example.com',
    phone: '9123456780',
  },
  photos: [
    {
      url: `/custom/api/v1/return-requests/${EXAMPLE.returnRequestId}/photos/0`,
      content_type: 'image/jpeg',
      width: 1200,
      height: 1600,
      size: 184_213,
    },
  ],
  language: 'hi',
  decision_note: null,
  decided_by: null,
  decision_rule: null,
  return_id: null,
  exchange_id: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  decided_at: null,
};

export const QUEUED_RETURN_REQUEST_ANSWER = {
  ...RETURN_REQUEST_ANSWER,
  buyer_history: { delivered: 6, rto: 1, refused: 1, other_return_requests: 2, other_returns_approved: 1 },
};

export const REJECTION_EXAMPLE = {
  message: 'Worn items cannot be returned: the tag has been removed.',
};

export const APPROVE_WITH_QC_EXAMPLE = {
  qc: {
    items: [{ sku: 'KURTA-M-BLUE', image_url: 'https://cdn.acme.example/kurta-blue.jpg', size: 'M', color: 'Blue' }],
  },
  // The example request is an exchange for size L: the L goes out as the M comes back.
  replacements: [{ sku: 'KURTA-M-BLUE', replacement_sku: 'KURTA-L-BLUE', replacement_name: 'Cotton Kurta, L' }],
};
