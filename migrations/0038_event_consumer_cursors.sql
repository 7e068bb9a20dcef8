-- Every outbox consumer's cursor is made with the database, not at the consumer's first read
-- (decision 128): on a new database the log is empty and each starts at its beginning, so nothing
-- recorded before the senders first run (a booking the moment the server answers) is skipped. On an
-- install that already has events, a consumer that has no cursor yet starts after the events that
-- have settled, so that a new consumer does not send for the install's whole history; a cursor that
-- exists stays where it is. A consumer added later gets its row the same way, in its own migration.
INSERT INTO "event_consumers" ("name", "after_txid", "after_position", "updated_at")
SELECT "consumer"."name", coalesce("last"."txid", '0'::xid8), coalesce("last"."position", 0), now()
FROM (VALUES ('webhooks'), ('notifications'), ('buyer-messaging'), ('ndr-rules')) AS "consumer" ("name")
LEFT JOIN (
	SELECT "txid", "position" FROM "events"
	WHERE "txid" < pg_snapshot_xmin(pg_current_snapshot())
	ORDER BY "txid" DESC, "position" DESC
	LIMIT 1
) AS "last" ON true
ON CONFLICT ("name") DO NOTHING;
