/**
 * The report's input for one domain, computed by the engine as `visibility report` computes it:
 * every section's payload over the window, the breakdowns by country and topic (the window's, and
 * the last 7 days against the 7 before) and the most recent answer of each of the top prompts.
 */
import type { Engine } from '../../src/index.js'
import type { ReportInput } from '../../src/report/html.js'

/** The demo's clock in the report tests. */
export const DEMO_NOW = '2026-11-20T12:00:00.000Z'

export async function reportInputOf(
  engine: Engine,
  domainId: string,
  opts: { days: number; now: string; topPrompts?: number },
): Promise<ReportInput> {
  const { now, days } = opts
  const base = { domainId, days, now }
  const breakdown = async (dimension: 'country' | 'topic') => ({
    window: await engine.computeQuery({ ...base, dimensions: [dimension], entity: 'brand', limit: 10_000 }),
    week: await engine.computeQuery({
      domainId,
      days: 7,
      now,
      dimensions: [dimension],
      entity: 'brand',
      compare: 'previous',
      limit: 10_000,
    }),
  })
  const prompts = await engine.computePromptSeries(base)
  const top = opts.topPrompts ?? 10
  return {
    domain: (await engine.getDomain(domainId))!,
    prompts,
    competitors: await engine.computeCompetitorSeries(base),
    overview: await engine.computeSentimentOverview(base),
    themes: await engine.computeSentimentThemes(base),
    leaderboard: await engine.computeModelLeaderboard(base),
    sentimentSeries: await engine.computeSentimentSeries(base),
    citedDomains: await engine.computeCitedDomains(base),
    citations: await engine.computeCitations(base),
    signals: await engine.computeSignals({ domainId, now }),
    byCountry: await breakdown('country'),
    byTopic: await breakdown('topic'),
    samples: await Promise.all(
      prompts.data.items
        .slice(0, top)
        .map((p) => engine.computeAnswers({ ...base, promptId: p.id, limit: 1 })),
    ),
    topPrompts: top,
  }
}
