/**
 * A process running the webhook worker over a database file until it is killed (the kill -9
 * test): argv[2] the database. Prints "ready" once the worker runs.
 */
import { openEngine, webhooksOf } from '../../src/index.js'

const engine = await openEngine({ path: process.argv[2]! })
const hooks = webhooksOf(engine)!
hooks.configure({ allowPrivate: true, retryBaseMs: 50, pollMs: 20, timeoutMs: 60_000 })
await hooks.start()
process.stdout.write('ready\n')
setInterval(() => undefined, 1000)
