-- V4: who started each extended test, so that `/test clear` is theirs (or a Manage Server member's) to do.
-- Tasks started before this migration have no starter (NULL): only a Manage Server member can clear those.
ALTER TABLE extended_tests ADD COLUMN started_by INTEGER;
