-- V6: what the store applied for each interaction (so a repeat is answered from it, never applied twice), and
-- a lease per shard (so a second process on the same database and shards is refused).

-- One row per interaction whose change the store applied: its outcome as JSON, for answering a repeat (a RESUME
-- replay, a duplicate delivery) with what the first delivery was told. `subject` names what it changed (e.g.
-- 'yz_roll:12') so that the roller's next click on that roll's message can be shown the stored outcome.
-- Kept a day by default (a RESUME replays minutes at most), then purged with the expired rolls.
CREATE TABLE applied_interactions (
    interaction_id INTEGER PRIMARY KEY,
    subject        TEXT,
    outcome        TEXT    NOT NULL,
    applied_at     REAL    NOT NULL
);
CREATE INDEX applied_interactions_by_subject ON applied_interactions (subject) WHERE subject IS NOT NULL;
CREATE INDEX applied_interactions_by_age ON applied_interactions (applied_at);

-- The process that serves each shard, until its lease expires (renewed while it lives).
CREATE TABLE shard_leases (
    shard_id   INTEGER PRIMARY KEY,
    owner      TEXT    NOT NULL,
    expires_at REAL    NOT NULL
);
