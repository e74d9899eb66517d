-- PostgreSQL V6 (SQLite's V8): a roll is logged once however often Discord delivers its interaction: an entry
-- keeps the id of the interaction that made it, unique, and a repeated write is ignored (ON CONFLICT DO NOTHING).
-- Entries logged before this migration have none (NULLs never clash).
ALTER TABLE roll_log ADD COLUMN interaction_id BIGINT;

CREATE UNIQUE INDEX roll_log_by_interaction ON roll_log (interaction_id);
