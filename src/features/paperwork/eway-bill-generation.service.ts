import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { greatCircleKm } from '../../domain/geo/distance.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { formatRupees } from '../../domain/money.js';
import type { EwayBillRules } from '../../domain/paperwork/eway-bill-data.js';
import { ewayBillNeed } from '../../domain/paperwork/eway-bill.js';
import {
  type EwayBillSource,
  ewayBillRequest,
  ewayBillSourceProblems,
} from '../../domain/paperwork/eway-bill-request.js';
import { GST_STATE_CODES } from '../../domain/paperwork/gstin.js';
import { invoiceNumber } from '../../domain/paperwork/invoice-number.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { type EwayBillGateway, GatewayFailure, GatewayRefusal } from './eway-bill-gateway.js';
import type { GatewaySettings } from './eway-bill-gateway-settings.service.js';
import * as repo from './eway-bill.repository.js';
import { nicError } from './nic-error-codes.js';
import { PAPERWORK_ERRORS } from './paperwork.errors.js';

interface Deps {
  db: Db;
  clock: Clock;
  rules: EwayBillRules;
  directory: PincodeDirectory;
  gateways: GatewaySettings;
  gateway: EwayBillGateway;
}

export interface GeneratedView {
  order_id: string;
  ewaybill_no: string;
  ewaybill_date: string;
  generated_at: string;
  valid_upto: string | null;
  doc_no: string;
  alert: string | null;
}

const IST_MS = 330 * 60 * 1000;
const indiaDate = (at: Date) => new Date(at.getTime() + IST_MS).toISOString().slice(0, 10);
const rupees = (paise: number) => formatRupees(paise / 100);

/** The portal's refusal in our words: who is at fault decides the status (nic-error-codes.ts). */
export function refusalError(refusal: GatewayRefusal): DomainError {
  const errors = refusal.codes.map((code) => ({ code, ...nicError(code) }));
  const said = (list: typeof errors) => list.map((e) => `${e.code} ${e.words}`).join('; ');
  const auth = errors.filter((e) => e.class === 'auth');
  if (auth.length > 0 || (refusal.stage === 'auth' && errors.length === 0))
    return PAPERWORK_ERRORS.eway_bill_gateway_auth_failed.error(
      `The GSP refused your e-way bill gateway's credentials at its ${refusal.stage === 'auth' ? 'auth' : 'generate'} call: ` +
        `${said(auth) || refusal.description || 'no reason given'}; correct them with PUT /paperwork-settings/eway-bill-gateway`,
    );
  const faults = errors.filter((e) => e.class === 'fault');
  if (faults.length > 0)
    return PAPERWORK_ERRORS.eway_bill_gateway_unavailable.error(
      `The e-way bill portal could not generate the bill now (${said(faults)}): nothing was stored; try again later`,
    );
  const duplicate = errors.find((e) => e.class === 'duplicate');
  if (duplicate)
    return PAPERWORK_ERRORS.eway_bill_duplicate.error(
      `The portal already has an e-way bill for this document (${said([duplicate])}): put its number on the order with PUT /order`,
      'docNo',
    );
  if (errors.length === 0)
    return PAPERWORK_ERRORS.eway_bill_gateway_unreadable.error(
      `The GSP refused the bill without an error code (${refusal.description || 'no words either'}): nothing was stored`,
    );
  const details = errors.map((e) => ({ field: e.field ?? 'request', message: `${e.field}: ${e.code} ${e.words}` }));
  return PAPERWORK_ERRORS.eway_bill_refused.error(
    details.map((d) => `The e-way bill portal refused ${d.message}`),
    details,
  );
}

/**
 * Part A of an order's e-way bill, generated through the account's GSP (docs/paperwork.md): refused
 * before any call when the account has no gateway, the order needs no bill or has one, or lacks
 * what the request needs; the number and day kept on the order, with an audit entry, only when the
 * portal answered a bill.
 */
export function createEwayBillGeneration({ db, clock, rules, directory, gateways, gateway }: Deps) {
  const record = auditRecorder(clock);

  /** The request's source, or the refusal that stops it before the GSP is called. */
  function sourceOf(found: repo.BillSource, supplierGstin: string): EwayBillSource {
    const { order, warehouse, store, invoice } = found;
    const from = directory.lookup(warehouse.pincode);
    const to = directory.lookup(order.shippingPincode);
    const billTo = directory.lookup(order.billingPincode);
    const need = ewayBillNeed(
      {
        valuePaise: order.subTotalPaise,
        lines: found.items.map((item) => ({
          hsn: item.hsn,
          valuePaise: item.units * Math.max(0, item.unitPricePaise - item.unitDiscountPaise),
        })),
        fromState: from?.state ?? '',
        toState: to?.state ?? '',
      },
      rules,
    );
    if (!need.needed)
      throw PAPERWORK_ERRORS.eway_bill_not_needed.error(
        `Order ${order.merchantOrderId} needs no e-way bill: its value of ${rupees(need.valuePaise)} does not exceed ${rupees(need.limitPaise)}, ${need.limitSetBy}`,
      );
    const problems: { field: string; message: string }[] = [];
    const registeredIn = GST_STATE_CODES[supplierGstin.slice(0, 2)];
    if (from && registeredIn !== from.state)
      problems.push({
        field: 'gstin',
        message: `the gateway's GSTIN ${supplierGstin} is registered in ${registeredIn}, not ${from.state} where warehouse ${warehouse.name} is: the bill's fromGstin must be the registration of the State the goods leave`,
      });
    const km = from && to ? greatCircleKm(from, to) : undefined;
    if (km === undefined)
      problems.push({
        field: from ? 'shipping_pincode' : 'warehouse',
        message: `pincode ${from ? order.shippingPincode : warehouse.pincode} is not in the pincode directory: the distance cannot be known`,
      });
    if (problems.length > 0)
      throw PAPERWORK_ERRORS.eway_bill_order_incomplete.error(
        problems.map((p) => p.message),
        problems,
      );
    const document = invoice?.sequence
      ? {
          number: invoiceNumber(invoice.prefix!, invoice.financialYear!, invoice.sequence),
          date: indiaDate(invoice.issuedAt!),
        }
      : { number: order.merchantOrderId, date: indiaDate(order.orderDate) };
    const buyerName = [order.billingName, order.billingLastName].filter(Boolean).join(' ');
    return {
      document,
      supplierGstin,
      dispatchFrom: {
        name: store?.legalName ?? warehouse.name,
        line1: warehouse.streetAddress,
        line2: null,
        city: warehouse.city,
        pincode: warehouse.pincode,
        state: from!.state,
      },
      billTo: {
        name: order.companyName ?? buyerName,
        line1: order.billingAddress,
        line2: order.billingAddress2,
        city: order.billingCity,
        pincode: order.billingPincode,
        state: billTo?.state ?? order.billingState,
        gstin: order.buyerGstin,
      },
      shipTo: order.shippingIsBilling
        ? null
        : {
            name: [order.shippingName, order.shippingLastName].filter(Boolean).join(' '),
            line1: order.shippingAddress,
            line2: order.shippingAddress2,
            city: order.shippingCity,
            pincode: order.shippingPincode,
            state: to!.state,
          },
      items: found.items,
      orderDiscountPaise: order.totalDiscountPaise,
      distanceKm: km!,
    };
  }

  return {
    async generate(actor: Actor, merchantOrderId: string): Promise<GeneratedView> {
      const { accountId } = actor;
      const credentials = await gateways.credentialsOf(accountId);
      if (!credentials)
        throw PAPERWORK_ERRORS.eway_bill_gateway_missing.error(
          'Your account has no e-way bill gateway: set your GSP credentials with PUT /paperwork-settings/eway-bill-gateway first',
        );
      const found = await repo.findBillSource(db, accountId, merchantOrderId);
      if (!found) throw notFound(`No order ${merchantOrderId} in your account`);
      if (found.order.ewaybillNo !== null)
        throw PAPERWORK_ERRORS.eway_bill_exists.error(
          `Order ${merchantOrderId} already has e-way bill ${found.order.ewaybillNo}`,
        );
      const source = sourceOf(found, credentials.gstin);
      const problems = ewayBillSourceProblems(source);
      if (problems.length > 0)
        throw PAPERWORK_ERRORS.eway_bill_order_incomplete.error(
          problems.map((p) => p.message),
          problems,
        );
      const request = ewayBillRequest(source);
      let bill: Awaited<ReturnType<EwayBillGateway['generate']>>;
      try {
        bill = await gateway.generate(credentials, request);
      } catch (error) {
        if (error instanceof GatewayRefusal) throw refusalError(error);
        if (error instanceof GatewayFailure)
          throw error.reason === 'down'
            ? PAPERWORK_ERRORS.eway_bill_gateway_unavailable.error(
                `The e-way bill gateway could not be used: ${error.message}; nothing was stored, try again later`,
              )
            : PAPERWORK_ERRORS.eway_bill_gateway_unreadable.error(
                `The e-way bill gateway's answer could not be read (${error.message}): nothing was stored; look on the portal for a bill of document ${request.docNo} before trying again`,
              );
        throw error;
      }
      const date = bill.generatedAt.slice(0, 10);
      await db.transaction(async (tx) => {
        if (!(await repo.keepEwayBill(tx, accountId, found.order.id, { number: bill.ewayBillNo, date })))
          throw PAPERWORK_ERRORS.eway_bill_exists.error(
            `Order ${merchantOrderId} was given an e-way bill while this one (${bill.ewayBillNo}) was generated: cancel one on the portal`,
          );
        await record(tx, actor, {
          action: 'ewaybill.generated',
          objectType: 'order',
          objectId: found.order.id,
          changes: { ewaybill_no: bill.ewayBillNo, ewaybill_date: date, doc_no: request.docNo },
        });
      });
      return {
        order_id: merchantOrderId,
        ewaybill_no: bill.ewayBillNo,
        ewaybill_date: date,
        generated_at: bill.generatedAt,
        valid_upto: bill.validUpto,
        doc_no: request.docNo,
        alert: bill.alert,
      };
    },
  };
}

export type EwayBillGeneration = ReturnType<typeof createEwayBillGeneration>;
