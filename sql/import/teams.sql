-- Reads the flat teams table of a Parquet export. Parameters: $path VARCHAR (a file or a glob).
SELECT id::VARCHAR AS id, name, plan, developer_access FROM read_parquet($path, hive_partitioning = true)
