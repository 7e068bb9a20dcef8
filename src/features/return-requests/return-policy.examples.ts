import type { ReturnPolicyBody } from './return-policy.schemas.js';

export const RETURN_POLICY_EXAMPLE: ReturnPolicyBody = {
  window_days: 7,
  reasons: ['size_issue', 'damaged', 'wrong_item', 'not_as_described', 'quality_issue'],
  non_returnable_skus: ['SOCKS-3PK'],
  non_returnable_categories: ['Innerwear', 'Jewellery'],
};

export const EXAMPLE_STORE_ID = '9b2f6d3e-4a1c-4e8b-9d7a-2c5e8f1a3b6d';
