/**
 * @module The MCP server of visibility-analytics (subpath export `visibility-analytics/mcp`): one
 * read-only tool per endpoint of the API, generated from the endpoint table, over stdio for a
 * local database (`visibility mcp --db PATH`) or Streamable HTTP on the API server (`/mcp`).
 * @example
 * import { openEngine } from 'visibility-analytics'
 * import { serveStdio } from 'visibility-analytics/mcp'
 * const engine = await openEngine({ path: 'data/demo.duckdb', readOnly: true })
 * const { closed } = await serveStdio(engine)
 * await closed
 * await engine.close()
 */
export { LOCAL_TOOLS, TOOLS, defineTool, forTools, toolName, type ToolDefinition } from './tools.js'
export {
  argumentsDetail,
  createMcpServer,
  listedTools,
  toolResult,
  weeklySummaryText,
  SERVER_INFO,
  type ToolBackend,
  type ToolCallExtra,
  type ToolOutcome,
} from './server.js'
export { connectStdio, localBackend, serveStdio, type StdioOptions } from './stdio.js'
export { idempotentGet, remoteBackend, restCallUrl, serveRemoteStdio } from './remote.js'
export { MCP_SESSION_DEFAULTS, SessionStore, type Closable, type McpSessionOptions } from './sessions.js'
export {
  CLIENT_GONE_STATUS,
  MAX_MESSAGES_PER_POST,
  MCP_DETAIL,
  MCP_METHODS,
  MCP_PATH,
  McpHttpSessions,
  callContextOf,
  isToolCall,
  jsonRpcMessages,
  mcpError,
  originRefusal,
  parseOrigin,
  singleId,
  type McpHttpOptions,
  type McpHttpRequest,
  type McpOriginOptions,
} from './http.js'
