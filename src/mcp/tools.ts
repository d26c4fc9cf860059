/**
 * @module The MCP tools, generated from the endpoint table (src/api/endpoints.ts): one read-only
 * tool per row, named by its snake_case operationId, with the row's parameter rules as the input
 * schema (their JSON value forms: bounds, defaults, enums, descriptions) and its payload schema as
 * the output schema. An endpoint added to the table is a tool without a line here.
 */
import { z } from 'zod'
import { ENDPOINTS, type Endpoint } from '../api/index.js'

/**
 * The tool name of an endpoint: its operationId in snake_case.
 * @example
 * toolName(endpoint) // 'get_prompt_time_series' for operationId 'getPromptTimeSeries'
 */
export function toolName(endpoint: Pick<Endpoint, 'operationId'>): string {
  return endpoint.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

/**
 * Rewrites REST wording for a model that sees tools, not paths: `GET /api/v1/domains` becomes
 * `the list_domains tool` (for every path of the table).
 * @example
 * forTools('The domain to report on (see GET /api/v1/domains).')
 * // 'The domain to report on (see the list_domains tool).'
 */
export function forTools(text: string, endpoints: readonly Endpoint[] = ENDPOINTS): string {
  let out = text
  for (const e of endpoints) out = out.replaceAll(`GET ${e.path}`, `the ${toolName(e)} tool`)
  return out
}

/** One generated tool: what the MCP server registers for a row of the table. */
export interface ToolDefinition {
  readonly name: string
  readonly endpoint: Endpoint
  readonly title: string
  readonly description: string
  /** The arguments: the row's parameters in their value forms, unknown names refused. */
  readonly input: z.ZodObject
  /** The structured result: the row's payload schema (a root object, as MCP requires). */
  readonly output: z.ZodObject
}

function describeTool(endpoint: Endpoint): string {
  if (endpoint.toolDescription !== undefined) return forTools(endpoint.toolDescription)
  const parts = [endpoint.summary, endpoint.description].filter((p): p is string => p !== undefined)
  return forTools(parts.map((p) => (p.endsWith('.') ? p : `${p}.`)).join(' '))
}

/** A root object without the payload's OpenAPI component id (which would make the schema a $ref). */
function outputObject(payload: z.ZodType, id: string): z.ZodObject {
  if (!(payload instanceof z.ZodObject)) throw new Error(`endpoint ${id}: the payload must be an object`)
  return z.object(payload.shape)
}

/**
 * The tool of one endpoint.
 * @example
 * const tool = defineTool(ENDPOINTS[0])
 * tool.input.parse({ domain_id: id }) // { domain_id: id, days: 30, limit: 25 }
 */
export function defineTool(endpoint: Endpoint): ToolDefinition {
  const shape = Object.fromEntries(
    Object.values(endpoint.params).map((param) => [
      param.name,
      param.value.meta({ description: forTools(param.description) }),
    ]),
  )
  return {
    name: toolName(endpoint),
    endpoint,
    title: endpoint.summary,
    description: describeTool(endpoint),
    input: z.strictObject(shape),
    output: outputObject(endpoint.payload, endpoint.id),
  }
}

/**
 * Every tool, in the order of the table.
 * @example
 * for (const tool of TOOLS) console.log(tool.name, tool.endpoint.path)
 */
export const TOOLS: readonly ToolDefinition[] = (ENDPOINTS as readonly Endpoint[]).map(defineTool)

/** The tools of a local reader without a key (stdio): every tool but those about the caller's key. */
export const LOCAL_TOOLS: readonly ToolDefinition[] = TOOLS.filter((t) => t.endpoint.keyed !== true)
