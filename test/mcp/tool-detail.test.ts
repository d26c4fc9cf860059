/**
 * An MCP tool error words the missing domain_id with the list_domains tool (not the REST path or a
 * query string); the REST detail stays the contract's. One place: src/api/details.ts.
 */
import { describe, expect, it } from 'vitest'
import { DETAIL, ENDPOINTS, toolDetail, type Endpoint } from '../../src/api/index.js'
import { toolName } from '../../src/mcp/index.js'

describe('tool details', () => {
  it('the missing-domain detail names the tool of the domains row; other details are the REST ones', () => {
    const domains = (ENDPOINTS as readonly Endpoint[]).find((e) => e.id === 'domain-list')!
    const text = toolDetail(DETAIL.domainRequired)
    expect(text).toBe(DETAIL.toolDomainRequired)
    expect(text).toContain(`the ${toolName(domains)} tool`)
    expect(text).not.toMatch(/GET |\/api\/|\?domain_id/)
    expect(DETAIL.domainRequired).toContain(`GET ${domains.path}`)
    for (const detail of [
      DETAIL.domainNotFound,
      DETAIL.planForbidden,
      'days must be an integer from 1 to 365.',
    ])
      expect(toolDetail(detail)).toBe(detail)
  })
})
