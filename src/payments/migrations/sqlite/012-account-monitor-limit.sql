-- The most monitors an account may have (dvs accounts create --max-monitors N). Accounts made before it get the
-- default of new ones.
ALTER TABLE accounts ADD COLUMN max_monitors INTEGER NOT NULL DEFAULT 1000 CHECK (max_monitors > 0);
