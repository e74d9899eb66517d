-- PostgreSQL V5 (SQLite's V7): the roll log (issue 12), every roll of every system, kept ROLL_LOG_DAYS days.
-- Its ids come from the same sequence as yz_rolls', so an entry's id never names another stored roll (SQLite
-- keeps the two counters apart with triggers); a pushable Year Zero roll's entry takes its roll's id.
CREATE TABLE roll_log (
    id          BIGINT PRIMARY KEY DEFAULT nextval(pg_get_serial_sequence('yz_rolls', 'id')),
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    system      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    reading     TEXT NOT NULL,
    events      TEXT NOT NULL DEFAULT '',
    extras      TEXT NOT NULL DEFAULT '{}',
    private     INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    card        TEXT,
    revealed_at DOUBLE PRECISION,
    CHECK (revealed_at IS NULL OR (private = 1 AND card IS NOT NULL))
);

CREATE INDEX roll_log_by_channel ON roll_log (guild_id, channel_id, created_at);
CREATE INDEX roll_log_by_age ON roll_log (created_at);
