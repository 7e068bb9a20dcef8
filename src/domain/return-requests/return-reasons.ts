// The reasons a buyer may give for a return: a fixed list of codes, so that each has its words in
// every language of the buyer's pages (buyer-copy/return-reason-words.ts) and the return-rate
// reports count like with like. A store offers the ones it takes (its return policy).

export const RETURN_REASONS = [
  'size_issue',
  'damaged',
  'defective',
  'wrong_item',
  'not_as_described',
  'missing_parts',
  'quality_issue',
  'changed_mind',
  'other',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
