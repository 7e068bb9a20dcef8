import type { RefundMethod } from '../return-requests/refund-payee.js';

// What the buyer's return form says, in each language (return-form-words.ts): the shape every
// language's words fill.

/** A photo the form refuses before the request is judged: each says which photo. */
export type PhotoProblem = 'photo_type' | 'photo_too_big' | 'photo_too_large' | 'photo_unreadable';
/** A pickup address field the form refuses. */
export type PickupProblem = 'required' | 'not_a_pincode' | 'not_a_mobile' | 'too_long';
export type PickupField = 'address' | 'pincode' | 'city' | 'state' | 'phone';
export type RequestState = 'pending' | 'approved' | 'rejected' | 'withdrawn';
/** The bank details the form asks for a refund by bank transfer or UPI. */
export type RefundField = 'upi_id' | 'account_holder' | 'account_number' | 'account_number_again' | 'ifsc';

export interface ReturnFormWords {
  /** The form's heading, and the tracking page's link to it. */
  title: string;
  /** Above the form: who is asked, and until when (the window's last day, as the page names days). */
  intro: (brand: string, lastDay: string) => string;
  itemsLegend: string;
  /** The quantity choice of one item: `item` is its name as the order lists it. */
  howMany: (item: string) => string;
  /** The quantity 0: the item stays with the buyer. */
  none: string;
  reason: string;
  chooseReason: string;
  comment: string;
  optional: string;
  wantLegend: string;
  refund: string;
  exchange: string;
  exchangeFor: string;
  photos: (max: number, megabytes: number) => string;
  /** How the money goes back: asked beside the choice of a refund. */
  refundLegend: string;
  /** Under that legend: the choice matters only for a refund. */
  refundOnly: string;
  refundMethods: Record<RefundMethod, string>;
  refundLabels: Record<RefundField, string>;
  /** The account number typed the second time differs from the first. */
  accountsDiffer: string;
  pickupLegend: string;
  pickupLabels: Record<PickupField, string>;
  send: string;
  /** After a request is sent: the page shows it below. */
  sent: string;
  expired: string;
  fix: string;
  photoProblems: Record<PhotoProblem, (position: number, megabytes: number) => string>;
  pickupProblems: Record<PickupProblem, (label: string) => string>;
  /** The buyer's requests of this shipment, newest first. */
  yourRequests: string;
  states: Record<RequestState, string>;
  askedOn: (day: string) => string;
  /** Before the merchant's message on a decided request. */
  storeSays: string;
  /** A resolution as the request list names it. */
  wants: { refund: string; exchange: (wanted: string | null) => string };
  /** Where a request's refund goes, with the payee masked (`account` keeps its last four digits) and the bank named. */
  refundTo: {
    original: string;
    store_credit: string;
    upi: (upiId: string) => string;
    bank_transfer: (bank: string, account: string) => string;
  };
  backToTracking: string;
}
