import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

/**
 * The boxes of a multi-piece shipment (MPS, docs/paperwork.md), one row each from box 1, written
 * with the booking. Box 1's AWB is the shipment's own (the master AWB Velocity's answers carry);
 * each other box has its own, from the courier's native MPS booking (Delhivery: a waybill per box)
 * or from a linked booking of its own (`courier_reference`, the reference it was booked under).
 * A shipment in one box has no rows here. Each box keeps its own status from its own scans; the
 * shipment's status rolls them up.
 */
export const shipmentBoxes = pgTable(
  'shipment_boxes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    /** 1 to the number of boxes; box 1 carries the master AWB. */
    boxNo: integer('box_no').notNull(),
    boxCount: integer('box_count').notNull(),
    awb: text('awb').notNull(),
    /** The reference the box was booked under at its courier: the shipment's id for box 1 and a native MPS booking's boxes. */
    courierReference: text('courier_reference').notNull(),
    weightGrams: doublePrecision('weight_grams').notNull(),
    lengthCm: doublePrecision('length_cm').notNull(),
    breadthCm: doublePrecision('breadth_cm').notNull(),
    heightCm: doublePrecision('height_cm').notNull(),
    items: jsonb('items').$type<{ sku: string; units: number }[]>().notNull(),
    /** The box's own status (the shipment vocabulary), from the scans of its AWB. */
    status: text('status').notNull(),
    /** The box's granular sub-status (lost, damaged, on hold, a hub…), from the same scans; null until one says. */
    subStatus: text('sub_status'),
    statusAt: timestamptz('status_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('shipment_boxes_shipment_box_key').on(t.shipmentId, t.boxNo),
    uniqueIndex('shipment_boxes_awb_key').on(t.awb),
    index('shipment_boxes_account_shipment_idx').on(t.accountId, t.shipmentId, t.boxNo),
    check('shipment_boxes_box_no_check', sql`${t.boxNo} between 1 and ${t.boxCount} and ${t.boxCount} >= 2`),
  ],
);
