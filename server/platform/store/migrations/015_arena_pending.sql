-- Votes stored and not yet in the tallies (server/modules/arena/tallier.ts). A save inserts its
-- votes and their ids here in one statement; the tallier takes them out in batches, many readers'
-- at a time, and brings the tallies up to date in the same transaction. A save is then one
-- statement, as it was before the tallies; their cost is paid once a batch, not once a vote.
-- No foreign key (its check would cost every save): forgetting a reader takes their votes' ids
-- out here in the same transaction.
CREATE TABLE arena_pending (
  id bigint PRIMARY KEY
);
