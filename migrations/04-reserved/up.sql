-- Placeholder kept on the h-deliver branch only, so that 06-outbox applies (migration ids must be
-- consecutive). The branch that owns migration 04 replaces this directory at merge.
DROP TABLE IF EXISTS h_deliver_placeholder_04;
