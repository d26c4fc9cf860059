/**
 * @module CSV bodies of the list endpoints (`Accept: text/csv` or `format=csv`), derived from the
 * payload schemas of the endpoint table, never written per route. A list payload is one whose
 * `data.items` is an array of objects; its CSV has one row per item, or, when an item holds an
 * array of objects (a series, the fan-out queries of a prompt), one row per element of it: the
 * item's columns repeated, then the element's columns prefixed with the array's name
 * (`series.date`). Nested objects are flattened with dotted names; arrays of values are joined with
 * `;`; null and absent values are empty cells. The envelope (window, paging, generated_at) stays
 * in the JSON form.
 */
import { stringify } from 'csv-stringify/sync'
import type { z } from 'zod'
import type { Endpoint } from '../api/index.js'

export const CSV_TYPE = 'text/csv; charset=utf-8'
/** The separator of the values of an array cell. */
export const LIST_SEPARATOR = ';'

type Def = {
  type: string
  innerType?: z.ZodType
  in?: z.ZodType
  out?: z.ZodType
  element?: z.ZodType
  shape?: Record<string, z.ZodType>
  options?: z.ZodType[]
  getter?: () => z.ZodType
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** The schema under optional, nullable, default, readonly, pipe and lazy wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  for (let s = schema, i = 0; i < 32; i++) {
    const def = defOf(s)
    if (def.innerType !== undefined) s = def.innerType
    else if (def.type === 'pipe') s = defOf(def.out!).type === 'transform' ? def.in! : def.out!
    else if (def.type === 'lazy') s = def.getter!()
    else return s
  }
  throw new Error('csv: schema nested too deeply')
}

/** How one field is written: a value, values joined, or (one per item) rows of a nested list. */
type Field = { kind: 'value' | 'list' | 'json'; column: string; path: string[] }

/** The columns of a list endpoint: those of an item and, if any, those of its nested rows. */
export interface CsvLayout {
  /** Every column, in order. */
  columns: string[]
  item: Field[]
  /** The item's array of objects written one row per element, and the element's fields. */
  nested: { path: string[]; fields: Field[] } | null
}

function fieldsOf(
  object: z.ZodType,
  prefix: string[],
  nested: Array<{ path: string[]; element: z.ZodType }>,
  jsonLists = false,
): Field[] {
  const def = defOf(unwrap(object))
  if (def.type !== 'object') throw new Error(`csv: ${prefix.join('.') || 'item'} is not an object`)
  const fields: Field[] = []
  for (const [name, child] of Object.entries(def.shape!)) {
    const path = [...prefix, name]
    const inner = defOf(unwrap(child))
    if (inner.type === 'object') fields.push(...fieldsOf(child, path, nested, jsonLists))
    else if (inner.type === 'array') {
      const element = unwrap(inner.element!)
      if (defOf(element).type === 'object') {
        if (jsonLists) fields.push({ kind: 'json', column: path.join('.'), path })
        else nested.push({ path, element })
      } else fields.push({ kind: 'list', column: path.join('.'), path })
    } else fields.push({ kind: 'value', column: path.join('.'), path })
  }
  return fields
}

/**
 * The CSV layout of a payload schema, or null when it is not a list payload (no `data.items`
 * array of objects). An item holding more than one array of objects (an answer's mentions,
 * citations and themes: no single row per element exists) is one row, each such array a cell of
 * its JSON text.
 * @example
 * csvLayout(endpoint.payload)?.columns // ['id', 'text', 'estimated_search_volume', 'series.date', ...]
 */
export function csvLayout(payload: z.ZodType): CsvLayout | null {
  const root = defOf(unwrap(payload))
  const data = root.type === 'object' ? root.shape!.data : undefined
  const dataDef = data === undefined ? undefined : defOf(unwrap(data))
  const items = dataDef?.type === 'object' ? dataDef.shape!.items : undefined
  const itemsDef = items === undefined ? undefined : defOf(unwrap(items))
  if (itemsDef?.type !== 'array' || defOf(unwrap(itemsDef.element!)).type !== 'object') return null
  const nestedLists: Array<{ path: string[]; element: z.ZodType }> = []
  let item = fieldsOf(itemsDef.element!, [], nestedLists)
  if (nestedLists.length > 1) {
    item = fieldsOf(itemsDef.element!, [], [], true)
    nestedLists.length = 0
  }
  let nested: CsvLayout['nested'] = null
  if (nestedLists.length === 1) {
    const inner: Array<{ path: string[]; element: z.ZodType }> = []
    const fields = fieldsOf(nestedLists[0]!.element, [], inner)
    if (inner.length > 0) throw new Error(`csv: ${nestedLists[0]!.path.join('.')} holds arrays of objects`)
    const prefix = nestedLists[0]!.path.join('.')
    nested = {
      path: nestedLists[0]!.path,
      fields: fields.map((f) => ({ ...f, column: `${prefix}.${f.column}` })),
    }
  }
  return { columns: [...item, ...(nested?.fields ?? [])].map((f) => f.column), item, nested }
}

const at = (value: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
    value,
  )

function cell(field: Field, value: unknown): string {
  const v = at(value, field.path)
  if (v === null || v === undefined) return ''
  if (field.kind === 'list') return (v as unknown[]).map(String).join(LIST_SEPARATOR)
  if (field.kind === 'json') return JSON.stringify(v)
  return String(v)
}

/**
 * The CSV text of a list payload (already checked against its schema), header row first.
 * @example
 * toCsv(layout, JSON.parse(answer.body))
 */
export function toCsv(layout: CsvLayout, payload: unknown): string {
  const items = (at(payload, ['data', 'items']) ?? []) as unknown[]
  const rows: string[][] = []
  for (const item of items) {
    const base = layout.item.map((f) => cell(f, item))
    if (layout.nested === null) {
      rows.push(base)
      continue
    }
    const elements = (at(item, layout.nested.path) ?? []) as unknown[]
    if (elements.length === 0) rows.push([...base, ...layout.nested.fields.map(() => '')])
    for (const element of elements) rows.push([...base, ...layout.nested.fields.map((f) => cell(f, element))])
  }
  return stringify(rows, { header: true, columns: layout.columns, record_delimiter: '\r\n' })
}

/**
 * The CSV layout of every list endpoint of the table, by endpoint id.
 * @example
 * CSV_LAYOUTS.get('prompts')?.columns
 */
export function csvLayouts(endpoints: readonly Endpoint[]): Map<string, CsvLayout> {
  const out = new Map<string, CsvLayout>()
  for (const endpoint of endpoints) {
    const layout = csvLayout(endpoint.payload)
    if (layout !== null) out.set(endpoint.id, layout)
  }
  return out
}

/**
 * The Markdown table of the CSV columns of every list endpoint (docs/HTTP.md carries it between
 * `<!-- csv-columns -->` markers; a test regenerates it and compares).
 * @example
 * csvColumnsMarkdown(ENDPOINTS)
 */
export function csvColumnsMarkdown(endpoints: readonly Endpoint[]): string {
  const layouts = csvLayouts(endpoints)
  const lines = ['| Endpoint | Rows | Columns |', '| --- | --- | --- |']
  for (const endpoint of endpoints) {
    const layout = layouts.get(endpoint.id)
    if (layout === undefined) continue
    const rows =
      layout.nested === null ? 'one per item' : `one per element of \`${layout.nested.path.join('.')}\``
    const columns = layout.columns.map((c) => `\`${c}\``).join(', ')
    lines.push(`| \`GET ${endpoint.path}\` | ${rows} | ${columns} |`)
  }
  return lines.join('\n')
}
