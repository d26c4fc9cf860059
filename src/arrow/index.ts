/**
 * Payloads as Apache Arrow tables. Meant for a subpath export (`visibility-analytics/arrow`), so
 * only notebook users load apache-arrow.
 * @example
 * import { toArrow } from 'visibility-analytics/arrow'
 */
export {
  competitorSeriesToArrow,
  detectPayloadKind,
  promptSeriesToArrow,
  sentimentOverviewToArrow,
  sentimentThemesToArrow,
  toArrow,
  type AnyPayload,
  type PayloadKind,
} from './to-arrow.js'
