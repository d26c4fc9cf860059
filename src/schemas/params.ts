/**
 * zod schemas of the compute functions' parameters. Messages are whole sentences that name the
 * parameter and what it accepts; the HTTP layer shows them as 400 details.
 */
import { z } from 'zod'
import { CHANNELS } from '../types.js'
import { MODEL_ID_RE, UUID_RE } from './records.js'

const clock = z
  .union([z.date(), z.iso.datetime({ offset: true })], {
    error: 'now must be a Date or an ISO 8601 timestamp with Z or an offset.',
  })
  .refine((v) => !(v instanceof Date) || !Number.isNaN(v.getTime()), {
    error: 'now must be a valid Date.',
  })
  .optional()

const domainId = z
  .string({ error: 'domain_id must be a UUID.' })
  .regex(UUID_RE, { error: 'domain_id must be a UUID.' })

const days = z
  .int({ error: 'days must be an integer from 1 to 365.' })
  .min(1, { error: 'days must be an integer from 1 to 365.' })
  .max(365, { error: 'days must be an integer from 1 to 365.' })
  .default(30)

const limit = z
  .int({ error: 'limit must be an integer from 1 to 100.' })
  .min(1, { error: 'limit must be an integer from 1 to 100.' })
  .max(100, { error: 'limit must be an integer from 1 to 100.' })
  .default(25)

const CHANNEL_LIST = `all, ${CHANNELS.join(', ')}`

const channelModel = z
  .enum(['all', ...CHANNELS], { error: `model must be one of ${CHANNEL_LIST}.` })
  .default('all')

const sentimentModel = z
  .string({ error: `model must be one of ${CHANNEL_LIST}, or a raw model id.` })
  .regex(MODEL_ID_RE, {
    error: `model must be one of ${CHANNEL_LIST}, or a raw model id of 1-100 characters from [A-Za-z0-9._:/@+-].`,
  })
  .default('all')

export const promptSeriesParamsSchema = z.strictObject({ domainId, days, limit, now: clock })
export const competitorSeriesParamsSchema = z.strictObject({
  domainId,
  days,
  model: channelModel,
  now: clock,
})
export const sentimentParamsSchema = z.strictObject({ domainId, days, model: sentimentModel, now: clock })
