DELETE FROM teams WHERE id IN (SELECT id::UUID FROM stg_teams)
