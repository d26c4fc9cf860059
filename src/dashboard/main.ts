/**
 * @module The dashboard page (served at `/`): takes the API key (fragment or form), lists its
 * domains and shows the HTML report's sections for the chosen domain, window, granularity and
 * model, fetched from the API with the key in the Authorization header.
 */
import { ApiError, callEndpoint, fetchManifest, paramOf, type Manifest, type Query } from './api.js'
import { forgetKey, storedKey, storeKey, takeKeyFromFragment } from './key.js'
import { modelLabel } from '../report/sections.js'
import { DASHBOARD_CSS } from './styles.js'
import { PAYLOAD_ENDPOINTS, renderDashboard, type Fetched, type PayloadName } from './view.js'

interface DomainItem {
  id: string
  name: string
  website: string | null
}

/** Window lengths offered, in days (those above the API's maximum are left out). */
const WINDOWS = [7, 14, 30, 90, 180]
const CUSTOM = 'custom'

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the page has no #${id}`)
  return found as T
}

const ui = {
  keyForm: element<HTMLFormElement>('key-form'),
  keyInput: element<HTMLInputElement>('key-input'),
  keyError: element<HTMLParagraphElement>('key-error'),
  controls: element<HTMLFormElement>('controls'),
  domain: element<HTMLSelectElement>('domain'),
  days: element<HTMLSelectElement>('days'),
  start: element<HTMLInputElement>('start'),
  end: element<HTMLInputElement>('end'),
  granularity: element<HTMLSelectElement>('granularity'),
  model: element<HTMLSelectElement>('model'),
  forget: element<HTMLButtonElement>('forget'),
  status: element<HTMLParagraphElement>('status'),
  report: element<HTMLDivElement>('report'),
}

let manifest: Manifest | null = null
let domains: DomainItem[] = []
let current: AbortController | null = null
let renders = 0

function setState(state: 'key' | 'loading' | 'ready' | 'error'): void {
  document.body.dataset.state = state
}

function option(value: string, label: string): HTMLOptionElement {
  const o = document.createElement('option')
  o.value = value
  o.textContent = label
  return o
}

/** Fills the window, granularity and model choices from the parameters the API documents. */
function fillChoices(m: Manifest): void {
  const days = paramOf(m, PAYLOAD_ENDPOINTS.competitors, 'days')?.schema
  const max = typeof days?.maximum === 'number' ? days.maximum : 365
  const byDefault = typeof days?.default === 'number' ? days.default : 30
  const lengths = [...new Set([...WINDOWS, byDefault])].filter((d) => d <= max).sort((a, b) => a - b)
  ui.days.replaceChildren(
    ...lengths.map((d) => option(String(d), `Last ${d} days`)),
    option(CUSTOM, 'Dates…'),
  )
  ui.days.value = String(byDefault)
  const granularities = (
    paramOf(m, PAYLOAD_ENDPOINTS.competitors, 'granularity')?.schema.enum ?? ['day']
  ).map(String)
  ui.granularity.replaceChildren(...granularities.map((g) => option(g, g[0]!.toUpperCase() + g.slice(1))))
  // The competitor series takes channels only: its choices fit every endpoint with a model.
  const models = (paramOf(m, PAYLOAD_ENDPOINTS.competitors, 'model')?.schema.enum ?? ['all']).map(String)
  ui.model.replaceChildren(...models.map((v) => option(v, modelLabel(v))))
  showRange()
}

function showRange(): void {
  const custom = ui.days.value === CUSTOM
  for (const input of [ui.start, ui.end]) {
    input.parentElement!.hidden = !custom
    input.required = custom
  }
  if (custom && ui.end.value === '') {
    const today = new Date()
    ui.end.value = today.toISOString().slice(0, 10)
    ui.start.value = new Date(today.getTime() - 29 * 86_400_000).toISOString().slice(0, 10)
  }
}

/** The parameters of the report calls from the controls. */
function query(): Query {
  const custom = ui.days.value === CUSTOM
  return {
    domain_id: ui.domain.value,
    ...(custom ? { start_date: ui.start.value, end_date: ui.end.value } : { days: ui.days.value }),
    granularity: ui.granularity.value,
    model: ui.model.value,
  }
}

function showKeyForm(detail?: string): void {
  current?.abort()
  ui.controls.hidden = true
  ui.report.replaceChildren()
  ui.status.textContent = ''
  ui.keyForm.hidden = false
  ui.keyError.hidden = detail === undefined
  ui.keyError.textContent = detail ?? ''
  ui.keyInput.value = ''
  ui.keyInput.focus()
  setState(detail === undefined ? 'key' : 'error')
}

/** Lists the key's domains, then draws the first. */
async function start(key: string): Promise<void> {
  ui.keyForm.hidden = true
  ui.status.textContent = 'Loading domains…'
  setState('loading')
  try {
    manifest ??= await fetchManifest(location.origin)
    const body = (await callEndpoint(manifest, 'domain-list', {}, key, location.origin)) as {
      data?: { items?: DomainItem[] }
    }
    domains = body.data?.items ?? []
  } catch (error) {
    const detail = error instanceof ApiError ? error.detail : 'The domains could not be listed.'
    if (error instanceof ApiError && error.status === 401) forgetKey(sessionStorage)
    showKeyForm(detail)
    return
  }
  if (domains.length === 0) {
    ui.status.textContent = 'This key can read no domain.'
    setState('ready')
    return
  }
  fillChoices(manifest)
  ui.domain.replaceChildren(
    ...domains.map((d) => option(d.id, d.website ? `${d.name} (${d.website})` : d.name)),
  )
  ui.controls.hidden = false
  await refresh()
}

/** Fetches every payload of the report for the controls' values and draws it. */
async function refresh(): Promise<void> {
  const key = storedKey(sessionStorage)
  if (key === null || manifest === null) return showKeyForm()
  if (!ui.controls.reportValidity()) return
  current?.abort()
  const controller = new AbortController()
  current = controller
  const m = manifest
  const q = query()
  const domain = domains.find((d) => d.id === q.domain_id)
  if (domain === undefined) return
  ui.status.textContent = `Loading ${domain.name}…`
  setState('loading')
  const names = Object.keys(PAYLOAD_ENDPOINTS) as PayloadName[]
  const results = await Promise.all(
    names.map(async (name) => {
      try {
        const value = await callEndpoint(
          m,
          PAYLOAD_ENDPOINTS[name],
          q,
          key,
          location.origin,
          controller.signal,
        )
        return [name, { ok: true as const, value }] as const
      } catch (error) {
        if (error instanceof ApiError)
          return [name, { ok: false as const, detail: error.detail, status: error.status }] as const
        throw error
      }
    }),
  ).catch((error: unknown) => {
    if (error instanceof DOMException && error.name === 'AbortError') return null
    throw error
  })
  if (results === null || controller.signal.aborted) return
  for (const [, r] of results) {
    if (!r.ok && r.status === 401) {
      forgetKey(sessionStorage)
      return showKeyForm(r.detail)
    }
  }
  const fetched: Fetched = Object.fromEntries(results)
  ui.report.innerHTML = renderDashboard(
    { id: domain.id, brand_name: domain.name, website: domain.website },
    fetched,
  )
  renders += 1
  ui.report.dataset.render = String(renders)
  ui.status.textContent = ''
  setState('ready')
}

function main(): void {
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(DASHBOARD_CSS)
  document.adoptedStyleSheets = [sheet]

  ui.keyForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const key = ui.keyInput.value.trim()
    ui.keyInput.value = ''
    if (key === '') return
    storeKey(sessionStorage, key)
    void start(key)
  })
  ui.controls.addEventListener('submit', (event) => event.preventDefault())
  ui.domain.addEventListener('change', () => void refresh())
  ui.days.addEventListener('change', () => {
    showRange()
    void refresh()
  })
  for (const input of [ui.start, ui.end, ui.granularity, ui.model])
    input.addEventListener('change', () => void refresh())
  ui.forget.addEventListener('click', () => {
    forgetKey(sessionStorage)
    showKeyForm()
  })
  window.addEventListener('hashchange', () => {
    const key = takeKeyFromFragment(location, history, sessionStorage)
    if (key !== null) void start(key)
  })

  const key = takeKeyFromFragment(location, history, sessionStorage) ?? storedKey(sessionStorage)
  if (key === null) showKeyForm()
  else void start(key)
}

main()
