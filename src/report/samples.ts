/**
 * @module The sample answers of the report page (docs/API.md, "GET /api/v1/answers"): the most
 * recent answer of each listed prompt, its text escaped and cut at a stated length, in a
 * `<details>` block the prompts table links to.
 */
import type { AnswerItem } from '../reports/index.js'
import { EMPTY, section } from './card.js'
import { esc, formatInt, formatTimestamp } from './format.js'
import type { ReportInput } from './input.js'

/** Characters of an answer shown before it is cut, unless the input says otherwise. */
export const SAMPLE_CHARS = 2000

/**
 * The id of a prompt's sample answer on the page (prompt ids are UUIDs; escaped all the same).
 * @example
 * sampleAnchor('0f8fad5b-d9cb-469f-a165-70867728950e') // 'answer-0f8fad5b-...'
 */
export function sampleAnchor(promptId: string): string {
  return `answer-${promptId}`
}

/**
 * The sample answer of each prompt: the first (most recent) answer of each payload, by its prompt.
 * A payload without answers gives none; of two payloads for one prompt the first counts.
 */
export function samplesByPrompt(input: ReportInput): Map<string, AnswerItem> {
  const out = new Map<string, AnswerItem>()
  for (const payload of input.samples ?? []) {
    const first = payload.data.items[0]
    if (first !== undefined && !out.has(first.prompt_id)) out.set(first.prompt_id, first)
  }
  return out
}

/**
 * The first `max` characters of a text, never splitting a surrogate pair, and whether it was cut.
 * @example
 * clip('abcdef', 4) // { text: 'abcd', cut: true }
 */
export function clip(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false }
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max
  return { text: text.slice(0, end), cut: true }
}

/** A channel id as shown beside an answer. */
type Label = (model: string) => string

function sampleBlock(answer: AnswerItem, max: number, label: Label): string {
  const meta = [label(answer.channel), answer.model, answer.country ?? 'Unknown country'].concat(
    formatTimestamp(answer.answered_at),
  )
  const summary = `<summary><span class="sample-prompt" dir="auto">${esc(answer.prompt_text)}</span><span class="sample-meta">${esc(meta.join(' · '))}</span></summary>`
  // The link's target is inside the block: following it opens the block (the ancestor
  // revealing of a fragment's target).
  const open = `<details class="sample">${summary}<div class="sample-body" id="${esc(sampleAnchor(answer.prompt_id))}">`
  if (answer.response === null)
    return `${open}<p class="foot">No answer text was stored for this answer.</p></div></details>`
  const { text, cut } = clip(answer.response, max)
  const length = `${formatInt(answer.response.length)} character${answer.response.length === 1 ? '' : 's'}`
  const note = cut
    ? `Showing the first ${formatInt(text.length)} of ${length}.`
    : `The whole answer: ${length}.`
  return `${open}<div class="answer-text" dir="auto">${esc(text)}${cut ? '…' : ''}</div><p class="foot sample-length">${esc(note)}</p></div></details>`
}

/**
 * The "Sample answers" section: one `<details>` block per listed prompt that has an answer, in
 * the order of the prompts table (the first `top` prompts), each with the answer's channel, model,
 * country and time.
 */
export function renderSamples(input: ReportInput, top: number, label: Label): string {
  const title = 'Sample answers'
  const subtitle = 'The most recent answer to each listed prompt, as the AI engine wrote it'
  const samples = samplesByPrompt(input)
  const prompts = (input.prompts?.data.items ?? []).slice(0, top)
  const shown = prompts.flatMap((p) => {
    const s = samples.get(p.id)
    return s === undefined ? [] : [s]
  })
  if (shown.length === 0) return section(title, subtitle, EMPTY, 'samples')
  const max = input.sampleChars ?? SAMPLE_CHARS
  return section(
    title,
    subtitle,
    `${shown.map((a) => sampleBlock(a, max, label)).join('')}<p class="foot">Texts longer than ${esc(formatInt(max))} characters are cut; the whole text is in the answers listing.</p>`,
    'samples',
  )
}
