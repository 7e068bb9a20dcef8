-- The tracking poller's queue is updated in place all day: each lease sets lease_until on up to 500
-- rows, which no index holds, so PostgreSQL can write the new row version beside the old one in the
-- same page (a HOT update) and touch no index, but only where the page has room. Filled to the brim
-- (a year's queue written at once, or by steady inserts), every lease wrote a new entry into each of
-- the table's four indexes instead (issue 52: the lease of 500 due parcels at 1.50-2.08x the empty
-- database's time). Pages now keep 30 % free; existing pages get their room as VACUUM frees it or
-- on a rewrite (docs/data-lifecycle.md). A storage parameter only: no rewrite, no long lock.
ALTER TABLE "courier_polls" SET (fillfactor = 70);
