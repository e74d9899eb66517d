-- V8: a roll is logged once however often Discord delivers its interaction (issue 9's rule, issue 12's log):
-- an entry keeps the id of the interaction that made it, unique, and a repeated write is ignored
-- (INSERT ... ON CONFLICT DO NOTHING). Entries logged before this migration have none (NULLs never clash).
ALTER TABLE roll_log ADD COLUMN interaction_id INTEGER;

CREATE UNIQUE INDEX roll_log_by_interaction ON roll_log (interaction_id);
