-- V10: Forbidden Lands resource dice (issue 22), kept per place (guild_id, as Willpower) and player; 0 is none.
CREATE TABLE resource_ratings (
    guild_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
    resource TEXT NOT NULL CHECK (resource IN ('food', 'water', 'arrows', 'torches')),
    rating INTEGER NOT NULL CHECK (rating IN (0, 6, 8, 10, 12)), PRIMARY KEY (guild_id, user_id, resource)
);
