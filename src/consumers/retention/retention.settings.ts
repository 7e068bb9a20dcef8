import { count } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

export const retentionSettings = defineSettings({
  webhookDeliveriesDays: count('WEBHOOK_DELIVERIES_RETENTION_DAYS', {
    doc: 'days a finished webhook delivery (succeeded, or given up) and its attempts stay listed (`GET /webhooks/{id}/deliveries`) and can be redelivered; older ones are pruned by a background job in small batches, pending ones never ([docs/operations.md](docs/operations.md#retention))',
    default: 30,
    min: 1,
    max: 3650,
  }),
  channelWebhookReceiptsDays: count('CHANNEL_WEBHOOK_RECEIPTS_RETENTION_DAYS', {
    doc: "days the id of each webhook a store sent is kept, so that the store's retry of it is taken once (Shopify and WooCommerce retry for hours); older ids are pruned by the same job",
    default: 30,
    min: 3,
    max: 3650,
  }),
  emailsDays: count('EMAILS_RETENTION_DAYS', {
    doc: "days a customer e-mail that is finished (sent, kept in the outbox without SMTP_URL, skipped or given up) stays listed with its subject and body (`GET /shipments/{id}/notifications` and `/emails`); older ones are pruned by the same job, pending ones never. Each holds the buyer's name, e-mail and address",
    default: 90,
    min: 1,
    max: 3650,
  }),
  buyerMessagesDays: count('BUYER_MESSAGES_RETENTION_DAYS', {
    doc: "days a WhatsApp, SMS or e-mail message to a buyer that is finished (sent or given up) stays listed with the values it was filled with; older ones are pruned by the same job, pending ones never. Each holds the buyer's phone or e-mail and name",
    default: 90,
    min: 1,
    max: 3650,
  }),
  keptScansDays: count('KEPT_SCANS_RETENTION_DAYS', {
    doc: "days a kept scan (a courier's record Dakiya could not apply, or a post no signature verified) stays listed and can be replayed, from the last time it was seen, replayed or applied; older ones are pruned by the same job. A parcel is long finished by then: what a replay would still change is its history, not its status",
    default: 180,
    min: 7,
    max: 3650,
  }),
  auditLogDays: count('AUDIT_LOG_RETENTION_DAYS', {
    doc: "days an audit log entry (who changed what in an account, and from where) is kept; older ones are pruned by the same job. At least 180: India's CERT-In directions of 28 April 2022 ask for 180 days of logs",
    default: 365,
    min: 180,
    max: 3650,
  }),
  trackingHistoryDays: count('TRACKING_HISTORY_RETENTION_DAYS', {
    doc: "days after a shipment or a return finished (delivered, returned to origin, cancelled, lost: its last change) that all its couriers' scans stay in its history; then every scan but the last is pruned by the same job. The parcel's status, times and milestones stay, and so do the merchant's records (orders, shipments, money)",
    default: 365,
    min: 30,
    max: 3650,
  }),
  eventsDays: count('EVENTS_RETENTION_DAYS', {
    doc: "days an event (`GET /events`, the source of webhooks and e-mails) stays in the event log once every consumer has read it; older ones are pruned by the same job, except each subject's last event and those a webhook delivery, e-mail or store write-back still names. A `GET /events` cursor older than this is refused",
    default: 90,
    min: 7,
    max: 3650,
  }),
  channelWritebacksDays: count('CHANNEL_WRITEBACKS_RETENTION_DAYS', {
    doc: 'days a finished write-back to a store (the fulfilment or tracking update sent, given up or skipped) stays listed; older ones are pruned by the same job, pending ones never',
    default: 30,
    min: 1,
    max: 3650,
  }),
  pruneBatchRows: count('PRUNE_BATCH_ROWS', {
    doc: 'rows the pruning job deletes per statement, each statement its own short transaction, with a pause between them so that requests never wait behind a long delete',
    default: 500,
    min: 10,
    max: 100_000,
  }),
});

export type RetentionSettings = SettingsOf<typeof retentionSettings>;
