-- PostgreSQL V2 (SQLite's V4): who started each extended test, so that `/test clear` is theirs (or a Manage
-- Server member's) to do. Tasks started before this migration have no starter (NULL).
ALTER TABLE extended_tests ADD COLUMN started_by BIGINT;
