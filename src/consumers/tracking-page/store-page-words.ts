// What the store's page (store-page.html.ts) says, and what the public page of an AWB adds, in
// every language of the buyers' pages: store-page-text.ts and store-page-text-south.ts.

export type StoreField = 'awb' | 'order_id' | 'phone';
export type StoreProblem = 'required' | 'awb_invalid' | 'order_invalid' | 'phone_invalid' | 'phone_mismatch';

export interface StoreWords {
  title: string;
  intro: (brand: string) => string;
  byAwb: string;
  byOrder: string;
  labels: Record<StoreField, string>;
  hints: Record<StoreField, string>;
  submit: string;
  notFound: (brand: string) => string;
  fix: string;
  problems: Record<StoreProblem, (label: string) => string>;
  /** The AWB's public page: proving the order's phone opens the buyer's own page. */
  manageTitle: string;
  manageIntro: string;
  manageSubmit: string;
  /** Back to the store's page, to look up another parcel. */
  another: string;
}
