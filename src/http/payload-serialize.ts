/**
 * @module The JSON text of a payload that passed its check (src/http/payload-check.ts): written by
 * fast-json-stringify from the row's payload schema (zod's own JSON Schema conversion, the one the
 * check and the OpenAPI document use), compiled once per process. The text is the same as
 * JSON.stringify's, byte for byte (test/http/payload-serialize.test.ts): the engine writes the
 * schema's key order, a checked payload has no key outside its schema and no NaN or Infinity, and
 * strings are escaped as JSON.stringify escapes them. The schema is given without its `required`
 * lists: fast-json-stringify writes required properties before optional ones, where the engine (and
 * JSON.stringify) keep the schema's order; the check has already enforced them. A year of daily
 * series (same process, real payloads of the serving bench): prompt series (176 KB) in 0.48-0.61x
 * of JSON.stringify's time, competitor series (213 KB) 0.78-0.99x. A schema fast-json-stringify
 * cannot compile, or that holds an object open to other keys, is written by JSON.stringify.
 */
import build from 'fast-json-stringify'
import { z } from 'zod'

/** Writes a checked payload of one schema as JSON text. */
export type PayloadSerializer = (payload: unknown) => string

const compiled = new WeakMap<z.ZodType, PayloadSerializer>()

/**
 * The serializer of `schema`'s bodies (compiled on first use, then shared).
 * @example
 * const body = payloadSerializer(endpoint.payload)(payload) // === JSON.stringify(payload)
 */
export function payloadSerializer(schema: z.ZodType): PayloadSerializer {
  let serialize = compiled.get(schema)
  if (serialize === undefined) {
    try {
      const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' })
      serialize = hasOpenObject(json)
        ? (payload) => JSON.stringify(payload)
        : (build(withoutRequired(json) as Parameters<typeof build>[0]) as PayloadSerializer)
    } catch {
      serialize = (payload) => JSON.stringify(payload)
    }
    compiled.set(schema, serialize)
  }
  return serialize
}

/**
 * Whether a JSON Schema holds an object open to other keys (a zod `looseObject`): its keys' order is
 * the payload's, not the schema's (a /query row's dimension values come in the order the request
 * names them, docs/API.md), which fast-json-stringify would not keep.
 */
function hasOpenObject(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasOpenObject)
  if (node === null || typeof node !== 'object') return false
  const o = node as Record<string, unknown>
  if (o.type === 'object' && o.additionalProperties !== false) return true
  return Object.values(o).some(hasOpenObject)
}

/** A copy of a JSON Schema without any `required` list (see the module's note). */
function withoutRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutRequired)
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'required' && Array.isArray(v)))
      .map(([k, v]) => [k, withoutRequired(v)]),
  )
}
