-- V2: a new Year Zero roll supersedes the same player's pending rolls in that channel inside its own INSERT.
-- Before, /yz ran BEGIN, an UPDATE, the INSERT and COMMIT; now the INSERT alone is one atomic statement
-- (a trigger runs within the statement that fires it), which makes a roll a single write.

CREATE TRIGGER yz_rolls_supersede AFTER INSERT ON yz_rolls
BEGIN
    UPDATE yz_rolls SET state = 'superseded'
    WHERE guild_id = NEW.guild_id AND channel_id = NEW.channel_id AND user_id = NEW.user_id
      AND state = 'pending' AND id < NEW.id;
END;
