/**
 * @module The check of a payload before it is sent (docs/API.md: a body that breaks its documented
 * schema is a 500, never sent): each row's payload schema as JSON Schema (zod's own conversion,
 * the one the OpenAPI document shows), compiled once per process by Ajv. It only reads the payload
 * (zod's parse builds a copy of it, which cost more than computing most reports); NaN and
 * Infinity, which JSON.stringify would write as null, are refused (Ajv's strict numbers). Key
 * order is not checked here: the engine writes the schema's order (test/http/payload-wire.test.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { z } from 'zod'

/** Whether a payload is a valid body of the schema it was compiled from; why not, for the log. */
export type PayloadCheck = (payload: unknown) => string | null

const ajv = new Ajv2020({ strict: true, strictNumbers: true, allErrors: false })
// ajv-formats is CommonJS: under NodeNext its default export is typed as the module object.
;(addFormats as unknown as (a: Ajv2020) => void)(ajv)

const compiled = new WeakMap<z.ZodType, PayloadCheck>()

/**
 * The check of `schema`'s bodies (compiled on first use, then shared).
 * @example
 * const problem = payloadCheck(endpoint.payload)(payload) // null: send it
 */
export function payloadCheck(schema: z.ZodType): PayloadCheck {
  let check = compiled.get(schema)
  if (check === undefined) {
    const validate = ajv.compile(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }))
    check = (payload) => {
      if (validate(payload)) return null
      const e = validate.errors?.[0]
      return `${e?.instancePath || '/'} ${e?.message ?? 'is invalid'}`
    }
    compiled.set(schema, check)
  }
  return check
}
