import { createHash } from 'node:crypto';
import { type Actor, operatorFor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db, Tx } from '../../base/db/client.js';
import type { DiscrepancyState } from '../../domain/charges.js';
import { checkAll } from '../../domain/errors.js';
import { ProblemList } from '../../domain/import-problems.js';
import type { Zone } from '../../domain/geo/zones.js';
import { decodeCursor, encodeCursor, indiaDayStart } from '../../domain/paging.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { forwardFreightAt } from '../../domain/rates/service-fit.js';
import type { EventType } from '../../domain/shipment/event-types.js';
import type { EventLog } from '../../events/event-log.js';
import { invalid, unprocessable } from '../../domain/errors.js';
import { CHARGE_ERRORS } from './charges.errors.js';
import { sniffImageType } from '../../base/images.js';
import * as repo from './weight-disputes.repository.js';
import {
  discrepancyView,
  type DisputeListQuery,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_IMAGES,
} from './weight-disputes.schemas.js';
import type { RowProblem, WeightReport } from './weight-report.js';
import { judgeUnstatedUnit } from './weight-units.js';

const DAY_MS = 86_400_000;
const NOT_FOUND = 'No weight discrepancy with this id in this account';

export interface WeightDisputesDeps {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  events: EventLog;
  /** Days an open discrepancy waits for the merchant before it is accepted for them. */
  windowDays: number;
}

export interface ImportOutcome {
  rows: number;
  opened: { id: string; awb: string; charged_weight: number; extra_charge: number }[];
  /** Rows whose AWB already has this same discrepancy: a file sent again. */
  unchanged: number;
  /** Rows whose charged weight is not above the applied weight, or adds nothing once priced. */
  no_extra_charge: number;
  /** The first rows not applied (MAX_LISTED_PROBLEMS), in line order. */
  errors: RowProblem[];
  /** Every row not applied, listed or not. */
  error_count: number;
}

export type WeightDisputesService = ReturnType<typeof createWeightDisputesService>;

export function createWeightDisputesService({ db, clock, catalogue, events, windowDays }: WeightDisputesDeps) {
  const audit = auditRecorder(clock);
  const record = async (tx: Tx, row: repo.DiscrepancyRow, type: EventType, at: Date) => {
    const evidence = await repo.evidenceOf(tx, row.accountId, [row.id]);
    await events.shipment(
      tx,
      row.accountId,
      row.shipmentId,
      [{ type, change: { weight_discrepancy: discrepancyView(row, evidence.get(row.id) ?? []) } }],
      at,
    );
  };

  /** Re-quotes a row at its charged weight; null with a reason when the shipment cannot be priced. */
  function price(shipment: Awaited<ReturnType<typeof repo.findShipmentsByAwb>>[number], grams: number) {
    const service = shipment.carrierId ? catalogue.byId.get(shipment.carrierId) : undefined;
    if (!service || shipment.freightPaise === null) return null;
    const zone = shipment.zone.replace(/^zone_/, '').toUpperCase() as Zone;
    const chargedFreightPaise = forwardFreightAt(service, zone, grams);
    return { chargedFreightPaise, extraPaise: chargedFreightPaise - shipment.freightPaise };
  }

  async function loadLocked(tx: Tx, accountId: string, id: string) {
    const row = await repo.findDiscrepancy(tx, accountId, id, true);
    if (!row) throw CHARGE_ERRORS.weight_discrepancy_not_found.error(NOT_FOUND);
    return row;
  }

  const view = async (accountId: string, row: repo.DiscrepancyRow, ex: Db | Tx = db) =>
    discrepancyView(row, (await repo.evidenceOf(ex, accountId, [row.id])).get(row.id) ?? []);

  return {
    /** The operator names the account: an unknown one is a 404, before any file is read. */
    async requireAccount(accountId: string) {
      if (!(await repo.accountExists(db, accountId)))
        throw CHARGE_ERRORS.weight_report_account_not_found.error(`account ${accountId} not found`);
    },

    /**
     * One parsed report, one transaction on `on` (the import's own connection): every good row
     * applied, every bad one reported with its line (the first MAX_LISTED_PROBLEMS, and their
     * count). A discrepancy is one per shipment, so a file sent again finds its rows already there.
     */
    async applyReport(actor: Actor, report: WeightReport, on: Db): Promise<ImportOutcome> {
      const { accountId } = actor;
      const now = clock.now();
      const errors = new ProblemList<RowProblem>();
      errors.addAll(report.problems, report.problemCount);
      const outcome: ImportOutcome = {
        rows: report.rows.length + report.problemCount,
        opened: [],
        unchanged: 0,
        no_extra_charge: 0,
        errors: [],
        error_count: 0,
      };
      await on.transaction(async (tx) => {
        const found = await repo.findShipmentsByAwb(
          tx,
          accountId,
          report.rows.map((row) => row.awb),
        );
        const byAwb = new Map(found.map((shipment) => [shipment.awb, shipment]));
        let rows = report.rows;
        if (report.unit === null) {
          const judged = judgeUnstatedUnit(report, (awb) => byAwb.get(awb)?.appliedWeightGrams);
          if ('refused' in judged) throw CHARGE_ERRORS.weight_unit_unstated.error(judged.refused, 'file');
          for (const problem of judged.problems) errors.add(problem);
          rows = judged.rows;
        }
        const existing = new Map(
          (
            await repo.findByShipments(
              tx,
              accountId,
              found.map((s) => s.id),
            )
          ).map((d) => [d.shipmentId, d]),
        );
        const fresh: repo.NewDiscrepancy[] = [];
        for (const row of rows) {
          const fail = (message: string) => errors.add({ line: row.line, awb: row.awb, message });
          const shipment = byAwb.get(row.awb);
          if (!shipment) {
            fail('no shipment with this AWB in this account');
            continue;
          }
          const before = existing.get(shipment.id);
          if (before) {
            if (before.chargedWeightGrams === row.chargedWeightGrams) outcome.unchanged++;
            else
              fail(`the shipment already has a weight discrepancy (${before.state}) at ${before.chargedWeightGrams} g`);
            continue;
          }
          if (row.chargedWeightGrams <= shipment.appliedWeightGrams) {
            outcome.no_extra_charge++;
            continue;
          }
          const priced = price(shipment, row.chargedWeightGrams);
          if (!priced) {
            fail("the shipment's courier service is not in the catalogue, or it was never booked");
            continue;
          }
          if (priced.extraPaise <= 0) {
            outcome.no_extra_charge++;
            continue;
          }
          fresh.push({
            shipmentId: shipment.id,
            awb: row.awb,
            carrierId: shipment.carrierId!,
            declaredWeightGrams: shipment.appliedWeightGrams,
            chargedWeightGrams: row.chargedWeightGrams,
            chargedLengthCm: row.dimensions?.lengthCm ?? null,
            chargedBreadthCm: row.dimensions?.breadthCm ?? null,
            chargedHeightCm: row.dimensions?.heightCm ?? null,
            ...priced,
            state: 'open',
            openedAt: now,
            dueAt: new Date(now.getTime() + windowDays * DAY_MS),
          });
        }
        const inserted = await repo.insertDiscrepancies(tx, accountId, fresh);
        // Another import of the same file that committed first took the rest: for this one they are unchanged.
        outcome.unchanged += fresh.length - inserted.length;
        for (const row of inserted) {
          await record(tx, row, 'shipment.weight_discrepancy_opened', now);
          outcome.opened.push({
            id: row.id,
            awb: row.awb,
            charged_weight: row.chargedWeightGrams,
            extra_charge: row.extraPaise / 100,
          });
        }
        await audit(tx, actor, {
          action: 'weight_report.imported',
          objectType: 'weight_report',
          objectId: null,
          changes: { rows: outcome.rows, opened: inserted.length },
        });
      });
      outcome.errors = errors.listed();
      outcome.error_count = errors.count;
      return outcome;
    },

    async accept(actor: Actor, id: string) {
      const { accountId } = actor;
      return db.transaction(async (tx) => {
        const row = await loadLocked(tx, accountId, id);
        if (row.state !== 'open')
          throw CHARGE_ERRORS.discrepancy_not_open.error(
            `the discrepancy is ${row.state}: only an open one can be accepted`,
          );
        const now = clock.now();
        const updated = await repo.updateDiscrepancy(tx, accountId, id, {
          state: 'accepted',
          settledBy: 'merchant',
          settledAt: now,
        });
        await record(tx, updated, 'shipment.weight_discrepancy_accepted', now);
        await audit(tx, actor, {
          action: 'weight_discrepancy.accepted',
          objectType: 'weight_discrepancy',
          objectId: id,
        });
        return view(accountId, updated, tx);
      });
    },

    /** Images arrive base64-encoded (JSON, or the multipart reader's copy of each file). */
    async dispute(actor: Actor, id: string, input: { comment: string; images: string | string[] }) {
      const { accountId } = actor;
      const encoded = Array.isArray(input.images) ? input.images : [input.images];
      if (encoded.length === 0 || encoded.length > EVIDENCE_MAX_IMAGES) {
        throw CHARGE_ERRORS.dispute_evidence_invalid.error(
          `images must hold 1 to ${EVIDENCE_MAX_IMAGES} photos of the packed parcel`,
          'images',
        );
      }
      // Every bad photo and a blank comment in one answer.
      const checks = checkAll('unprocessable', CHARGE_ERRORS.dispute_evidence_invalid);
      const images = encoded.map((text, i) => checks.check(() => readEvidence(text, `images/${i}`)));
      const comment = input.comment.trim();
      checks.check(() => {
        if (!comment) throw unprocessable('comment must say why the charged weight is wrong', 'comment');
      });
      checks.done();
      return db.transaction(async (tx) => {
        const row = await loadLocked(tx, accountId, id);
        if (row.state !== 'open')
          throw CHARGE_ERRORS.discrepancy_not_open.error(
            `the discrepancy is ${row.state}: only an open one can be disputed`,
          );
        const now = clock.now();
        if (now >= row.dueAt)
          throw CHARGE_ERRORS.dispute_window_closed.error(
            `the dispute window closed at ${row.dueAt.toISOString()}: the charge is accepted`,
          );
        await repo.insertEvidence(
          tx,
          accountId,
          id,
          images.filter((image) => image !== undefined),
        );
        const updated = await repo.updateDiscrepancy(tx, accountId, id, {
          state: 'disputed',
          comment,
          disputedAt: now,
        });
        await record(tx, updated, 'shipment.weight_discrepancy_disputed', now);
        await audit(tx, actor, {
          action: 'weight_discrepancy.disputed',
          objectType: 'weight_discrepancy',
          objectId: id,
          changes: { comment, images: images.length },
        });
        return view(accountId, updated, tx);
      });
    },

    /** The operator's verdict on a dispute, as the courier gave it. */
    async resolve(accountId: string, id: string, outcome: 'won' | 'lost', resolution: string | undefined) {
      return db.transaction(async (tx) => {
        const row = await loadLocked(tx, accountId, id);
        if (row.state !== 'disputed')
          throw CHARGE_ERRORS.discrepancy_not_disputed.error(
            `the discrepancy is ${row.state}: only a disputed one can be won or lost`,
          );
        const now = clock.now();
        const updated = await repo.updateDiscrepancy(tx, accountId, id, {
          state: outcome,
          settledBy: 'operator',
          settledAt: now,
          resolution: resolution?.trim() || null,
        });
        await record(tx, updated, 'shipment.weight_discrepancy_resolved', now);
        await audit(tx, operatorFor(accountId), {
          action: 'weight_discrepancy.resolved',
          objectType: 'weight_discrepancy',
          objectId: id,
          changes: { outcome, resolution: resolution?.trim() || null },
        });
        return view(accountId, updated, tx);
      });
    },

    /** Accepts up to `limit` open discrepancies past their window; answers how many. */
    async acceptDue(limit = 100): Promise<number> {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const due = await repo.lockDueOpen(tx, now, limit);
        for (const row of due) {
          const updated = await repo.updateDiscrepancy(tx, row.accountId, row.id, {
            state: 'accepted',
            settledBy: 'window',
            settledAt: now,
          });
          await record(tx, updated, 'shipment.weight_discrepancy_accepted', now);
        }
        return due.length;
      });
    },

    async get(accountId: string, id: string) {
      const row = await repo.findDiscrepancy(db, accountId, id);
      if (!row) throw CHARGE_ERRORS.weight_discrepancy_not_found.error(NOT_FOUND);
      return view(accountId, row);
    },

    async evidence(accountId: string, id: string, position: number) {
      const image = await repo.evidenceImage(db, accountId, id, position);
      if (!image)
        throw CHARGE_ERRORS.evidence_image_not_found.error(
          'No such evidence image for this weight discrepancy in this account',
        );
      return image;
    },

    /** Of every store, or of the stores `reach` names (a store-limited credential's). */
    async list(accountId: string, query: DisputeListQuery, limit: number, reach: readonly string[] | null = null) {
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (after === null) throw invalid('cursor must be a next_cursor this listing answered', 'cursor');
      const rows = await repo.listDiscrepancies(
        db,
        accountId,
        {
          states: asList(query.state) as DiscrepancyState[] | undefined,
          carrierIds: asList(query.carrier_id),
          openedFrom: query.from ? indiaDayStart(query.from) : undefined,
          openedBefore: query.to ? indiaDayStart(query.to, 1) : undefined,
          after: after && { openedAt: after.at, id: after.id },
          ...(reach !== null && { storeIds: reach }),
        },
        limit + 1,
      );
      const page = rows.slice(0, limit);
      const evidence = await repo.evidenceOf(
        db,
        accountId,
        page.map((row) => row.id),
      );
      const last = page.at(-1);
      return {
        data: page.map((row) => discrepancyView(row, evidence.get(row.id) ?? [])),
        next_cursor: rows.length > limit && last ? encodeCursor(last.openedAt, last.id) : null,
      };
    },
  };
}

const asList = <T extends string>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** A photo as store logos are checked: by its bytes (PNG, JPEG, WebP or GIF), at most 2 MiB. */
function readEvidence(encoded: string, field: string) {
  const base64 = encoded.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64))
    throw unprocessable(`${field} must be a file upload or a base64-encoded image`, field);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > EVIDENCE_MAX_BYTES)
    throw unprocessable(`${field} must be at most 2 MiB (${EVIDENCE_MAX_BYTES} bytes)`, field);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw unprocessable(`${field} must be a PNG, JPEG, WebP or GIF image`, field);
  return { bytes, contentType, sha256: createHash('sha256').update(bytes).digest('hex') };
}
