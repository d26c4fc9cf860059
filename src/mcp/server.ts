/**
 * @module The MCP server of one session or connection, on the official SDK's protocol `Server`:
 * the generated tools (src/mcp/tools.ts) and a prompt template. A tool call runs the checks of the
 * REST order: first the backend's checks that come before any parameter is read (over HTTP: rate
 * limit and key team), then the arguments against the row's parameter rules (the first issue, in
 * parameter order, is the REST sentence), then the backend's answer (domain, plan, cache, engine).
 * The SDK's high-level `McpServer` would check the arguments before anything else, so the tools
 * are served with the protocol-level handlers instead. The HTTP backend is
 * src/http/plugins/mcp.ts; the stdio one src/mcp/stdio.ts.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { toolDetail } from '../api/index.js'
import { isValidationError } from '../index.js'
import { TOOLS, toolName, type ToolDefinition } from './tools.js'

/** What a tool handler knows about its call (the SDK's handler extra: auth info, request id, ...). */
export type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>

/**
 * The outcome of a call: the payload (and its JSON text, when the backend already has it), or the
 * detail message of a refusal, which the client sees as a tool error.
 */
export type ToolOutcome = { payload: unknown; text?: string } | { detail: string }

/** Answers tool calls: `admit` runs before the arguments are checked, `call` with valid arguments. */
export interface ToolBackend {
  /** Checks that come before any parameter (rate limit, key team): a detail refuses the call. */
  admit?(extra: ToolCallExtra): Promise<string | null>
  /** Answers a call whose arguments are valid (normalized, defaults filled in). */
  call(tool: ToolDefinition, args: Record<string, unknown>, extra: ToolCallExtra): Promise<ToolOutcome>
}

/** Name and version the server reports to clients. */
export const SERVER_INFO = { name: 'visibility-analytics', version: '1.0.0' } as const

const INSTRUCTIONS =
  'Reports on how AI assistants (ChatGPT, Perplexity, Gemini, Claude, Copilot, Google AI Overviews and AI Mode) ' +
  'mention a brand and its competitors. Start with list_domains: it gives the ids of the domains (brands) you may read; ' +
  'every report takes one as domain_id. Windows are trailing UTC days (days, today included). Every tool is read-only.'

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const

/**
 * The MCP result of an outcome: the payload as structured content and as JSON text, or a tool error.
 * @example
 * toolResult({ detail: 'Domain not found.' }) // { content: [{ type: 'text', text: 'Domain not found.' }], isError: true }
 */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  if ('detail' in outcome)
    return { content: [{ type: 'text', text: toolDetail(outcome.detail) }], isError: true }
  const text = outcome.text ?? JSON.stringify(outcome.payload)
  return {
    content: [{ type: 'text', text }],
    structuredContent: outcome.payload as Record<string, unknown>,
  }
}

/** The tool names of endpoint ids, for the prompt's text (only the ones the table has). */
function toolsById(tools: readonly ToolDefinition[]): Map<string, string> {
  return new Map(tools.map((t) => [t.endpoint.id, toolName(t.endpoint)]))
}

/**
 * The text of the weekly summary prompt: which tools to call and how to read them.
 * @example
 * weeklySummaryText('20000000-0000-4000-8000-0000000000a1', TOOLS)
 */
export function weeklySummaryText(domainId: string, tools: readonly ToolDefinition[] = TOOLS): string {
  const name = toolsById(tools)
  const steps: string[] = []
  const competitors = name.get('competitor-series')
  if (competitors !== undefined) {
    steps.push(
      `${competitors} with days=14: compare the brand's (is_brand) mean daily visibility and share of voice over ` +
        'the last 7 dates of its series with the 7 before, and name the competitors that gained or lost the most.',
    )
  }
  const prompts = name.get('prompt-series')
  if (prompts !== undefined) {
    steps.push(`${prompts} with days=7 and limit=10: the prompts that mentioned the brand most this week.`)
  }
  const overview = name.get('sentiment-overview')
  const themes = name.get('sentiment-themes')
  if (overview !== undefined && themes !== undefined) {
    steps.push(
      `${overview} and ${themes} with days=7: the sentiment split and the strongest positive and negative ` +
        'themes (skip this step if the plan does not include sentiment).',
    )
  }
  return [
    `Write a weekly AI-search visibility summary for the domain ${domainId}.`,
    'Call these tools with that domain_id:',
    ...steps.map((step, i) => `${i + 1}. ${step}`),
    'Then write at most 200 words: the dates covered, visibility and share of voice this week versus last week ' +
      '(numbers to one decimal), the top prompts, the competitors to watch, and the sentiment. Use only the ' +
      'numbers the tools return.',
  ].join('\n')
}

/** The JSON Schema of a zod schema as MCP publishes it (draft-07, as the SDK's clients validate). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>
}

/** The tools/list entries built so far, by tool list: once per process, not once per session. */
const LISTED = new WeakMap<readonly ToolDefinition[], readonly Tool[]>()

/**
 * The tools/list entries of `tools`, built on the first call for that list (their JSON Schemas
 * cost milliseconds) and shared by every session after it.
 * @example
 * listedTools(TOOLS)[0].inputSchema // { type: 'object', properties: { domain_id: ... }, ... }
 */
export function listedTools(tools: readonly ToolDefinition[] = TOOLS): readonly Tool[] {
  let listed = LISTED.get(tools)
  if (listed === undefined) {
    listed = Object.freeze(buildListedTools(tools))
    LISTED.set(tools, listed)
  }
  return listed
}

function buildListedTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...READ_ONLY },
  }))
}

/**
 * The detail of invalid arguments: the first issue, in parameter order (the REST sentence for a bad
 * value); an unknown argument names itself and the ones the tool takes.
 * @example
 * argumentsDetail(tool, tool.input.safeParse({ domain_id: id, days: 0 }).error!) // 'days must be an integer from 1 to 365.'
 */
export function argumentsDetail(tool: ToolDefinition, error: z.ZodError): string {
  const issue = error.issues[0]
  if (issue?.code === 'unrecognized_keys') {
    const known = Object.keys(tool.input.shape)
    const takes = known.length === 0 ? 'takes no arguments' : `takes ${known.join(', ')}`
    return `Unknown argument ${issue.keys.join(', ')}: ${tool.name} ${takes}.`
  }
  return issue?.message ?? 'Invalid arguments.'
}

const WEEKLY_SUMMARY = {
  name: 'weekly_visibility_summary',
  title: 'Weekly visibility summary',
  description: "A summary of a domain's last 7 days against the 7 before, from the report tools.",
  arguments: [
    { name: 'domain_id', description: 'The domain (an id from the list_domains tool).', required: true },
  ],
}

/**
 * A new MCP server (one per session or connection) with every tool of `tools`, answered by
 * `backend`, and the `weekly_visibility_summary` prompt.
 * @example
 * const server = createMcpServer(localBackend(engine))
 * await server.connect(new StdioServerTransport())
 */
export function createMcpServer(backend: ToolBackend, tools: readonly ToolDefinition[] = TOOLS): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, prompts: {} },
    instructions: INSTRUCTIONS,
  })
  const byName = new Map(tools.map((t) => [t.name, t]))
  const listed = listedTools(tools)
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listed] }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}.`)
    }
    const refusal = (await backend.admit?.(extra)) ?? null
    if (refusal !== null) return toolResult({ detail: refusal })
    const parsed = tool.input.safeParse(request.params.arguments ?? {})
    if (!parsed.success) return toolResult({ detail: argumentsDetail(tool, parsed.error) })
    let args: Record<string, unknown>
    try {
      // The window's rules between arguments; the REST query's normalized values (one cache entry).
      args = tool.endpoint.normalize(parsed.data as never)
    } catch (error) {
      if (!isValidationError(error)) throw error
      return toolResult({ detail: error.issues[0]?.message ?? error.message })
    }
    const outcome = await backend.call(tool, args, extra)
    // A row whose payload can outgrow a model's context gives the tool a shorter form of it.
    const fit = tool.endpoint.toolPayload
    return toolResult(
      fit === undefined || !('payload' in outcome) ? outcome : { payload: fit(outcome.payload) },
    )
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [WEEKLY_SUMMARY] }))
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const domainId = request.params.arguments?.domain_id
    if (request.params.name !== WEEKLY_SUMMARY.name) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}.`)
    }
    if (domainId === undefined || domainId === '') {
      throw new McpError(ErrorCode.InvalidParams, 'domain_id is required.')
    }
    return {
      description: WEEKLY_SUMMARY.description,
      messages: [{ role: 'user', content: { type: 'text', text: weeklySummaryText(domainId, tools) } }],
    }
  })
  return server
}
