import { codDiscrepancyView } from '../../domain/cod-discrepancy.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import { formatDay, indiaDayOf, type WorkingCalendar } from '../../domain/calendar.js';
import { paiseToRupees } from '../../domain/money.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { DEFAULT_REMITTANCE_CYCLE, expectedRemittanceDay } from '../../domain/rates/remittance-cycle.js';
import { MAX_LISTED_PROBLEMS, ProblemList } from '../../domain/import-problems.js';
import type { LineProblem, RemittanceLine } from '../../domain/remittance-files.js';
import { eachInTurns } from '../../base/turns.js';
import type { EventLog } from '../../events/event-log.js';
import type { ShipmentStatusListener } from '../contracts.js';
import { COD_LEDGER_ERRORS } from './cod-ledger.errors.js';
import * as repo from './cod-ledger.repository.js';
import { type PackedRemittanceFile, unpackLines } from './remittance-parser.js';

export type CodLedger = ReturnType<typeof createCodLedger>;

/** Where a remittance file came from. */
export type ImportSource = 'api' | 'cli';

const stateOf = (received: number, expected: number) => (received === expected ? 'reconciled' : 'remitted');

export function createCodLedger({
  db,
  clock,
  catalogue,
  calendar,
  events,
}: {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  calendar: WorkingCalendar;
  events: EventLog;
}) {
  const audit = auditRecorder(clock);
  const receivableOf = (shipment: repo.LedgerShipment): repo.NewReceivable | null => {
    if (
      !shipment.isCod ||
      shipment.codAmountPaise <= 0 ||
      shipment.status !== 'delivered' ||
      !shipment.carrierId ||
      !shipment.deliveredAt
    )
      return null;
    const cycle = catalogue.byId.get(shipment.carrierId)?.remittanceCycle ?? DEFAULT_REMITTANCE_CYCLE;
    return {
      shipmentId: shipment.id,
      awb: shipment.awb,
      carrierId: shipment.carrierId,
      amountPaise: shipment.codAmountPaise,
      deliveredAt: shipment.deliveredAt,
      expectedDate: formatDay(expectedRemittanceDay(cycle, indiaDayOf(shipment.deliveredAt), calendar)),
    };
  };

  /** Opens the receivables of delivered COD shipments that have none yet. */
  const openReceivables = async (tx: Executor, accountId: string, shipments: repo.LedgerShipment[], now: Date) => {
    const rows = shipments.map(receivableOf).filter((row) => row !== null);
    await repo.insertReceivables(tx, accountId, rows, now);
  };

  return {
    /** Handed to the tracking intake (app.ts): a delivered COD shipment opens its receivable in the delivery's transaction. */
    onStatusChange: (async (tx, accountId, shipmentId, status, now) => {
      if (status !== 'delivered') return;
      const shipment = await repo.findShipment(tx, accountId, shipmentId);
      if (shipment) await openReceivables(tx, accountId, [shipment], now);
    }) satisfies ShipmentStatusListener,

    /** The operator names the account; an API credential's account exists. */
    async requireAccount(accountId: string) {
      if (!(await repo.accountExists(db, accountId)))
        throw COD_LEDGER_ERRORS.remittance_account_not_found.error(`account ${accountId} not found`);
    },

    /**
     * Applies a parsed remittance file in one transaction, on `on` (the import's own connection):
     * each bad line is reported with its number and reason (the first MAX_LISTED_PROBLEMS, and
     * their count), the good ones applied; lines taken before (courier, UTR, AWB) change nothing.
     */
    async applyFile(
      actor: Actor,
      file: { id: string; parsed: PackedRemittanceFile; fileName: string | null; source: ImportSource },
      on: Db,
    ) {
      const { accountId } = actor;
      const now = clock.now();
      const lines = await unpackLines(file.parsed);
      const problems = new ProblemList<LineProblem>();
      problems.addAll(file.parsed.problems, file.parsed.problemCount);
      const parsed = { format: file.parsed.format, lines };
      // The lines' shipments are read, and the lines sorted, before the transaction: no lock is
      // taken on shipments, so the transaction would read the same, and on the embedded database,
      // which runs one transaction at a time, every other request waits for this one to end.
      const shipments = await repo.findShipmentsByAwb(on, accountId, [...new Set(parsed.lines.map((l) => l.awb))]);
      const byAwb = new Map(shipments.map((s) => [s.awb, s]));
      const usable: RemittanceLine[] = [];
      await eachInTurns(parsed.lines, (line) => {
        const shipment = byAwb.get(line.awb);
        const reason = !shipment
          ? `AWB ${line.awb} not found`
          : !shipment.isCod
            ? `AWB ${line.awb} is a prepaid shipment: it has no cash on delivery to remit`
            : !shipment.carrierId
              ? `AWB ${line.awb} has no courier`
              : null;
        if (reason) problems.add({ line: line.line, awb: line.awb, reason });
        else usable.push(line);
      });
      return on.transaction(async (tx) => {
        const paidShipments = [...new Set(usable.map((l) => byAwb.get(l.awb)!))];
        const receivables = await repo.lockReceivables(
          tx,
          accountId,
          paidShipments.map((s) => s.id),
        );
        // A delivery recorded before the ledger existed gets its receivable now (only those: the
        // insert's conflict check over every line's shipment cost as much as the rest of a file).
        const opened = new Set(receivables.map((r) => r.shipmentId));
        const unopened = paidShipments.filter((s) => !opened.has(s.id) && s.status === 'delivered');
        if (unopened.length > 0) {
          await openReceivables(tx, accountId, unopened, now);
          receivables.push(
            ...(await repo.lockReceivables(
              tx,
              accountId,
              unopened.map((s) => s.id),
            )),
          );
        }
        const receivableOfShipment = new Map(receivables.map((r) => [r.shipmentId, r]));
        const newLines: repo.NewLine[] = usable.map((line) => {
          const shipment = byAwb.get(line.awb)!;
          return {
            line: line.line,
            carrierId: shipment.carrierId!,
            awb: line.awb,
            shipmentId: shipment.id,
            receivableId: receivableOfShipment.get(shipment.id)?.id ?? null,
            utr: line.utr,
            amountPaise: line.amountPaise,
            remittanceDate: formatDay(line.date),
          };
        });
        const importId = await repo.insertImport(
          tx,
          accountId,
          {
            id: file.id,
            format: parsed.format,
            source: file.source,
            fileName: file.fileName,
            lines: 0,
            applied: 0,
            duplicates: 0,
            problems: 0,
            appliedPaise: 0,
          },
          now,
        );
        await audit(tx, actor, {
          action: 'cod_remittance_file.imported',
          objectType: 'cod_remittance_import',
          objectId: importId,
          changes: { format: parsed.format, file_name: file.fileName, lines: parsed.lines.length },
        });
        const inserted = await repo.insertLines(tx, accountId, importId, newLines, now);
        const idOfLine = new Map(inserted.map((row) => [row.line, row.id]));
        const applied = newLines.filter((line) => idOfLine.has(line.line));
        let duplicates = 0;
        const repeated = newLines.filter((line) => !idOfLine.has(line.line));
        if (repeated.length > 0) {
          const before = await repo.findLines(tx, accountId, repeated);
          const key = (l: { carrierId: string; utr: string; awb: string }) => `${l.carrierId}\n${l.utr}\n${l.awb}`;
          const earlier = new Map(before.map((l) => [key(l), l]));
          for (const line of repeated) {
            const was = earlier.get(key(line))!;
            if (was.amountPaise === line.amountPaise && was.remittanceDate === line.remittanceDate) duplicates++;
            else {
              problems.add({
                line: line.line,
                awb: line.awb,
                reason: `utr ${line.utr} was already taken in for this AWB with amount ${paiseToRupees(was.amountPaise)} on ${was.remittanceDate}; a line is never changed`,
              });
            }
          }
        }

        // Each receivable's new total, from all of this file's lines for it, and its discrepancy if the total is off.
        const updates = new Map<string, repo.ReceivableUpdate>();
        const lastLine = new Map<string, repo.NewLine>();
        const discrepancies: repo.NewDiscrepancy[] = [];
        const receivableById = new Map(receivables.map((r) => [r.id, r]));
        for (const line of applied) {
          if (line.receivableId === null) {
            discrepancies.push({
              kind: 'paid_not_delivered',
              shipmentId: line.shipmentId,
              awb: line.awb,
              carrierId: line.carrierId,
              receivableId: null,
              remittanceId: idOfLine.get(line.line)!,
              expectedPaise: 0,
              receivedPaise: line.amountPaise,
            });
            continue;
          }
          const receivable = receivableById.get(line.receivableId)!;
          const received = (updates.get(receivable.id)?.receivedPaise ?? receivable.receivedPaise) + line.amountPaise;
          const latest = updates.get(receivable.id);
          const newer = !latest || line.remittanceDate >= latest.remittanceDate;
          updates.set(receivable.id, {
            id: receivable.id,
            receivedPaise: received,
            state: stateOf(received, receivable.amountPaise),
            utr: newer ? line.utr : latest.utr,
            remittanceDate: newer ? line.remittanceDate : latest.remittanceDate,
          });
          lastLine.set(receivable.id, line);
        }
        for (const update of updates.values()) {
          const receivable = receivableById.get(update.id)!;
          if (update.receivedPaise === receivable.amountPaise) continue;
          const line = lastLine.get(update.id)!;
          discrepancies.push({
            kind: update.receivedPaise < receivable.amountPaise ? 'short_paid' : 'over_paid',
            shipmentId: line.shipmentId,
            awb: line.awb,
            carrierId: line.carrierId,
            receivableId: receivable.id,
            remittanceId: idOfLine.get(line.line)!,
            expectedPaise: receivable.amountPaise,
            receivedPaise: update.receivedPaise,
          });
        }
        await repo.updateReceivables(tx, accountId, [...updates.values()], now);
        const found = await repo.insertDiscrepancies(tx, accountId, discrepancies, now);
        const appliedPaise = applied.reduce((sum, line) => sum + line.amountPaise, 0);
        const counts = {
          lines: lines.length + file.parsed.problemCount,
          applied: applied.length,
          duplicates,
          problems: problems.count,
          appliedPaise,
        };
        await repo.updateImport(tx, accountId, importId, counts);
        const summary = {
          id: importId,
          format: parsed.format,
          file_name: file.fileName,
          lines: counts.lines,
          applied: counts.applied,
          duplicates,
          applied_amount: paiseToRupees(appliedPaise),
          utrs: [...new Set(applied.map((l) => l.utr))].sort(),
          discrepancies: found.length,
        };
        if (applied.length > 0) {
          await events.recordAll(
            tx,
            accountId,
            { subjectType: 'cod_remittance_import', subjectId: importId },
            [
              { type: 'cod.remittance_applied', data: { import: summary } },
              ...found.map((row) => ({
                type: 'cod.discrepancy_found' as const,
                data: { discrepancy: codDiscrepancyView(row) },
              })),
            ],
            now,
          );
        }
        return {
          ...summary,
          problems: problems.listed(),
          problem_count: problems.count,
          found: found.slice(0, MAX_LISTED_PROBLEMS).map(codDiscrepancyView),
        };
      });
    },

    /** The scheduled check: receivables still unpaid past their day become missing_from_remittance, once each. */
    async checkOverdue(): Promise<number> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await repo.insertMissing(tx, formatDay(indiaDayOf(now)), now);
        for (const row of found) {
          await events.record(
            tx,
            row.accountId,
            {
              type: 'cod.discrepancy_found',
              subjectType: 'cod_receivable',
              subjectId: row.receivableId!,
              data: { discrepancy: codDiscrepancyView(row) },
            },
            now,
          );
        }
        return found.length;
      });
    },

    /** Per AWB, the account's COD position; another account's AWB answers as unknown. */
    async settlements(accountId: string, awbs: string[]) {
      const rows = await repo.findSettlements(db, accountId, [...new Set(awbs)]);
      return { rows: new Map(rows.map((row) => [row.awb, row])), today: formatDay(indiaDayOf(clock.now())) };
    },
  };
}
