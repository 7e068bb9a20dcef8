/*
 * The e-way bill portal's error codes that generating Part A can meet, with the portal's own words
 * and the request field each names. Words from NIC's error list as public client code keeps it
 * (developerkdc/topl_backend, controllers/dispatch/errorCodeMapForEwayBill.js). Which codes mean the
 * credentials: 238 and 108 are re-authenticated on by a WhiteBooks client (index id 52904273696) and
 * 238 by Odoo (odoo/odoo addons/l10n_in_edi_ewaybill/models/account_edi_format.py); 604 is Odoo's
 * "already generated". How each is answered: docs/paperwork.md, "Generation through a GSP".
 */

export type NicErrorClass =
  /** The GSP or portal refused the credentials: 502, the merchant corrects them. */
  | 'auth'
  /** The portal's or GSP's own fault, or its limit: 503, try later. */
  | 'fault'
  /** A bill exists for the document: 409. */
  | 'duplicate'
  /** The request's content: 422 naming its field. */
  | 'request';

export interface NicError {
  words: string;
  class: NicErrorClass;
  /** The request field at fault, for a refusal of its content. */
  field?: string;
}

const auth = (words: string): NicError => ({ words, class: 'auth' });
const fault = (words: string): NicError => ({ words, class: 'fault' });
const field = (name: string, words: string): NicError => ({ words, class: 'request', field: name });

export const NIC_ERRORS: Readonly<Record<string, NicError>> = {
  '101': auth('Invalid Username'),
  '102': auth('Invalid Password'),
  '103': auth('Invalid Client -Id'),
  '104': auth('Invalid Client Secret'),
  '105': auth('Invalid Token'),
  '106': auth('Token Expired'),
  '107': auth('Authentication failed. Pls. inform the helpdesk'),
  '108': auth('Invalid login credentials.'),
  '110': auth('Invalid Client-ID/Client-Secret'),
  '111': auth('GSTIN is not registerd to this GSP'),
  '112': auth('Inactive Client'),
  '113': auth('Inactive User'),
  '116': auth('Auth token is not valid for this client'),
  '237': auth('Invalid client -Id/client-secret'),
  '238': auth('Invalid auth token'),
  '114': fault('Technical Error, Pl. contact the helpdesk.'),
  '118': fault('Try after 5 minutes'),
  '240': fault('Could not generate eway bill, pls contact helpdesk'),
  '658': fault('You are blocked for accesing this API as the allowed number of requests has been exceeded'),
  '800': fault('Redis server Is not Working  try after some time'),
  '813': fault('Duplicate request at the same time'),
  '604': {
    words:
      'E-way bill(s) are already generated for the same document number, you cannot generate again on same document number',
    class: 'duplicate',
    field: 'docNo',
  },
  '100': field('request', 'Invalid Json'),
  '201': field('supplyType', 'Invalid Supply Type'),
  '202': field('subSupplyType', 'Invalid Sub-supply Type'),
  '204': field('docType', 'Invalid Document type'),
  '206': field('docNo', 'Invaild Invoice Number'),
  '207': field('docDate', 'Invalid Invoice Date'),
  '208': field('fromGstin', 'Invalid Supplier GSTIN / Enrolled URP'),
  '209': field('fromAddr1', 'Blank Supplier Address'),
  '210': field('fromPincode', 'Invalid or Blank Supplier PIN Code'),
  '211': field('fromStateCode', 'Invalid or Blank Supplier state Code'),
  '212': field('toGstin', 'Invalid Consignee GSTIN / Enrolled URP'),
  '213': field('toAddr1', 'Invalid Consignee Address'),
  '214': field('toPincode', 'Invalid Consignee PIN Code'),
  '215': field('toStateCode', 'Invalid Consignee State Code'),
  '216': field('itemList.hsnCode', 'Invalid HSN Code'),
  '217': field('itemList.qtyUnit', 'Invalid UQC Code'),
  '218': field('itemList', 'Invalid Tax Rate for Intra State Transaction'),
  '219': field('itemList', 'Invalid Tax Rate for Inter State Transaction'),
  '221': field('transDistance', 'Invalid Approximate Distance'),
  '229': field('fromTrdName', 'Supplier name is required'),
  '230': field('fromPlace', 'Supplier place is required'),
  '231': field('toTrdName', 'Consignee name is required'),
  '232': field('toPlace', 'Consignee place is required'),
  '233': field('itemList', 'Eway bill does not contains any items'),
  '234': field('totalValue', 'Total amount/Taxable amout is mandatory'),
  '242': field('toStateCode', 'Invalid State Code'),
  '282': field('itemList.hsnCode', 'At least 4 digit HSN code is mandatory for taxpayers with turnover less than 5Cr.'),
  '359': field('fromGstin', 'User GSTIN should match to GSTIN(from) for outward transactions'),
  '398': field('itemList', 'Eway Bill Item List is Empty'),
  '620': field(
    'totInvValue',
    'Total invoice value cannot be less than the sum of total assessible value and tax values',
  ),
  '640': field('totInvValue', 'Tolal Invoice value is mandatory'),
  '643': field(
    'actFromStateCode',
    'For regular transaction, Bill from state code and Dispatch from state code should be same',
  ),
  '644': field('actToStateCode', 'For regular transaction, Bill to state code and Ship to state code should be same'),
  '715': field(
    'fromGstin',
    'The Consignor GSTIN is blocked from e-waybill generation as Return is not filed for past 2 months',
  ),
  '716': field(
    'toGstin',
    'The Consignee GSTIN is blocked from e-waybill generation as Return is not filed for past 2 months',
  ),
  '822': field('toGstin', 'Both supplier and recipient cannot be URP'),
};

/** A code the list does not know is a refusal of the request, named by its number. */
export const nicError = (code: string): NicError =>
  NIC_ERRORS[code] ?? { words: 'an error code Dakiya does not know', class: 'request', field: 'request' };
