-- The reports sum an account's daily totals over their range (issue 52). Read through the primary
-- key and then a heap page per row, a year's 4,250 rows cost 4,231 buffer visits (1.5 ms at a
-- year's volume, the largest part of the year's report): the rows' heap order is the order of their
-- updates, not the key's. With the two sums in the key's own index the read is an index-only scan of
-- its ~54 pages (0.45 ms). The price: a counter update changes an indexed column, so it is never a
-- HOT update here; one index entry per change of a table that holds a few thousand rows per account
-- a year. Rebuilding the key takes the table's lock for as long as its few thousand rows take.
ALTER TABLE "shipment_daily_totals"
  DROP CONSTRAINT "shipment_daily_totals_pkey",
  ADD CONSTRAINT "shipment_daily_totals_pkey" PRIMARY KEY ("account_id", "day", "store_id", "status", "is_cod", "shard")
    INCLUDE ("shipments", "value_paise");
