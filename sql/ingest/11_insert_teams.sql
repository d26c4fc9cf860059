INSERT INTO teams SELECT id::UUID, name, plan, developer_access FROM stg_teams
