-- PostgreSQL V4 (SQLite's V6): what the store applied for each interaction (so a repeat is answered from it,
-- never applied twice), and a lease per shard (so a second process on the same database and shards is refused).
CREATE TABLE applied_interactions (
    interaction_id BIGINT PRIMARY KEY,
    subject        TEXT,
    outcome        TEXT NOT NULL,
    applied_at     DOUBLE PRECISION NOT NULL
);
CREATE INDEX applied_interactions_by_subject ON applied_interactions (subject) WHERE subject IS NOT NULL;
CREATE INDEX applied_interactions_by_age ON applied_interactions (applied_at);

CREATE TABLE shard_leases (
    shard_id   INTEGER PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
