#!/usr/bin/env node
/**
 * The `visibility` executable: ingest NDJSON into a DuckDB file, compute the report payloads, serve
 * them, and the demo (src/cli/cli.ts). Imports the engine only through its public API.
 */
import { main } from './cli.js'

// A closed pipe (`visibility compute ... | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw e
})
process.exitCode = await main(process.argv.slice(2))
