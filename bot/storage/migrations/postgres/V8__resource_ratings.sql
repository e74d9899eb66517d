-- PostgreSQL V8 (SQLite's V10): Forbidden Lands resource dice, per place and player; 0 is none.
CREATE TABLE resource_ratings (
    guild_id BIGINT NOT NULL, user_id BIGINT NOT NULL,
    resource TEXT NOT NULL CHECK (resource IN ('food', 'water', 'arrows', 'torches')),
    rating SMALLINT NOT NULL CHECK (rating IN (0, 6, 8, 10, 12)), PRIMARY KEY (guild_id, user_id, resource)
);
