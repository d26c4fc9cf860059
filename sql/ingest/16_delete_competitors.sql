DELETE FROM competitors WHERE id IN (SELECT id::UUID FROM stg_competitors)
