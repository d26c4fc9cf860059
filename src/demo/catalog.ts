/**
 * @module What the demo dataset is about: its teams, their tracked brands (domains), each brand's
 * prompts, competitors, sentiment themes and the sites AI answers cite. Plain data; the numbers
 * are drawn by src/demo/dataset.ts. Brands and competitors are fictional; the third-party sites
 * are the kind of public sources AI answers cite.
 */
import type { Plan } from '../types.js'

/** A competitor: its name, website (null: none tracked) and how often answers name it. */
export interface DemoCompetitor {
  name: string
  website: string | null
  /** Base probability that an answer mentions it (0-1). */
  strength: number
  /** Change of that probability over a year (a slow wave; negative: losing ground). */
  drift: number
  /** Mean sentiment of its mentions (0-100). */
  sentiment: number
}

/** A sentiment theme of the brand. */
export interface DemoTheme {
  name: string
  sentiment: 'positive' | 'negative'
  /** The display name the customer gave it, if renamed. */
  customName?: string
  archived?: boolean
  /** Relative frequency. */
  weight: number
}

/** A third-party site answers cite: host, path pattern and page type. */
export interface DemoSource {
  host: string
  /** Path for a prompt slug and a stable number: `/r/hiking/comments/${n}/${slug}/`. */
  path: (slug: string, n: number) => string
  pageType: string
  /** Page title for a prompt's title-cased text; null: the source has none. */
  title: (topic: string) => string | null
  weight: number
}

/** A tracked brand. */
export interface DemoBrand {
  brand: string
  /** As the customer typed it (a scheme, `www.` or a bare host: all compare as the same site). */
  website: string | null
  /** Host of the own pages; `blog.` and `help.` subdomains are cited too. */
  host: string
  /** Base probability that an answer mentions the brand, and its yearly drift. */
  strength: number
  drift: number
  sentiment: number
  prompts: Array<[text: string, volume: number | null]>
  competitors: DemoCompetitor[]
  themes: DemoTheme[]
  sources: DemoSource[]
}

export interface DemoTeam {
  name: string
  plan: Plan
  brands: DemoBrand[]
}

const rival = (
  name: string,
  website: string | null,
  strength: number,
  drift: number,
  sentiment: number,
): DemoCompetitor => ({ name, website, strength, drift, sentiment })
const theme =
  (sentiment: DemoTheme['sentiment']) =>
  (name: string, weight: number, extra: Pick<DemoTheme, 'customName' | 'archived'> = {}): DemoTheme => ({
    name,
    sentiment,
    weight,
    ...extra,
  })
const good = theme('positive')
const bad = theme('negative')

const reddit = (sub: string, weight = 3): DemoSource => ({
  host: 'www.reddit.com',
  path: (slug, n) => `/r/${sub}/comments/${(1_000_000 + n * 7919).toString(36)}/${slug}/`,
  pageType: 'forum',
  title: (topic) => `${topic}? : r/${sub}`,
  weight,
})
const youtube = (weight = 2): DemoSource => ({
  host: 'www.youtube.com',
  path: (_slug, n) => `/watch?v=${(n * 104_729 + 3_511).toString(36).padStart(11, 'x')}`,
  pageType: 'video',
  title: () => null,
  weight,
})
const wikipedia = (article: string, weight = 1): DemoSource => ({
  host: 'en.wikipedia.org',
  path: () => `/wiki/${article}`,
  pageType: 'reference',
  title: () => `${article.replaceAll('_', ' ')} - Wikipedia`,
  weight,
})
const reviews = (host: string, name: string, weight = 2): DemoSource => ({
  host,
  path: (slug) => `/reviews/${slug}`,
  pageType: 'review',
  title: (topic) => `${topic}: Tested and Reviewed | ${name}`,
  weight,
})

/** The demo's teams, in the order of their ids. The first brand is the one the demo points to. */
export const DEMO_TEAMS: DemoTeam[] = [
  {
    name: 'Trailhead Outfitters',
    plan: 'enterprise',
    brands: [
      {
        brand: 'Trailhead',
        website: 'https://www.trailheadoutfitters.com/',
        host: 'www.trailheadoutfitters.com',
        strength: 0.46,
        drift: 0.12,
        sentiment: 71,
        prompts: [
          ['best hiking boots for wide feet', 14_800],
          ['lightweight backpacking tent for two', 9_900],
          ['where to buy outdoor gear online', 6_600],
          ['best rain jacket for hiking', 22_200],
          ['ultralight sleeping bag under 2 pounds', 2_900],
          ['trail running shoes for beginners', 8_100],
          ['best camping stove for backpacking', 5_400],
          ['outdoor gear store with free returns', 1_300],
          ['waterproof hiking boots for women', 12_100],
          ['best daypack for day hikes', 4_400],
          ['how to choose a sleeping pad', 3_600],
          ['sustainable outdoor clothing brands', null],
        ],
        competitors: [
          rival('Ridgeline Supply', 'ridgelinesupply.com', 0.52, -0.08, 66),
          rival('Backcountry Depot', 'www.backcountrydepot.com', 0.34, 0.1, 62),
          rival('Alpine & Co', 'https://alpineco.com', 0.22, 0.02, 74),
          rival('Cascade Gear', null, 0.12, 0.06, 58),
          rival('Northbound', 'northbound.store', 0.07, 0.12, 69),
        ],
        themes: [
          good('Free returns', 5),
          good('Expert staff advice', 4),
          good('Product selection', 4),
          good('Membership rewards', 2, { customName: 'Trailhead Rewards' }),
          good('Sustainability', 2),
          bad('Price', 4, { customName: 'Pricing' }),
          bad('Shipping speed', 3),
          bad('Stock availability', 2),
          bad('Website usability', 2, { archived: true }),
        ],
        sources: [
          reddit('hiking', 4),
          reddit('CampingGear'),
          youtube(),
          wikipedia('Hiking_equipment'),
          reviews('www.outdoorgearlab.com', 'OutdoorGearLab', 4),
          reviews('www.switchbacktravel.com', 'Switchback Travel'),
        ],
      },
      {
        brand: 'Summit Kids',
        website: 'summitkids.com',
        host: 'summitkids.com',
        strength: 0.31,
        drift: 0.05,
        sentiment: 76,
        prompts: [
          ['best kids rain jacket', 6_600],
          ['warm winter boots for toddlers', 8_100],
          ['kids hiking shoes with good grip', 1_900],
          ['durable snow pants for kids', 4_400],
          ['best kids backpack for hiking', 1_600],
          ['eco friendly children outdoor clothing', 880],
        ],
        competitors: [
          rival('Little Explorer', 'littleexplorer.com', 0.38, -0.05, 70),
          rival('Puddle Jumpers', 'www.puddlejumpers.co.uk', 0.21, 0.08, 73),
          rival('Ridgeline Supply', 'ridgelinesupply.com', 0.17, 0, 64),
        ],
        themes: [good('Durability', 5), bad('Sizing', 3), good('Bright colors', 2), bad('Price', 3)],
        sources: [
          reddit('Parenting', 3),
          reddit('toddlers'),
          reviews('www.babygearlab.com', 'BabyGearLab', 3),
          youtube(1),
        ],
      },
    ],
  },
  {
    name: 'Lumen Software',
    plan: 'pro',
    brands: [
      {
        brand: 'Lumen',
        website: 'lumenhq.io',
        host: 'lumenhq.io',
        strength: 0.38,
        drift: 0.18,
        sentiment: 68,
        prompts: [
          ['best project management software for small teams', 18_100],
          ['simple kanban board for remote teams', 2_400],
          ['project management tool with time tracking', 5_400],
          ['free gantt chart software', 9_900],
          ['best tool to plan a product roadmap', 3_600],
          ['project management app for agencies', 2_900],
          ['how to manage sprints without jira', 1_000],
          ['task management software with client portal', 1_300],
          ['best project management software for startups', 6_600],
          ['open source alternatives for project planning', null],
        ],
        competitors: [
          rival('Taskflow', 'https://www.taskflow.app', 0.55, -0.1, 64),
          rival('Orbit PM', 'orbitpm.com', 0.41, 0.04, 70),
          rival('Kanbanly', 'kanbanly.io', 0.19, 0.14, 72),
          rival('Stacks', null, 0.09, 0.03, 55),
        ],
        themes: [
          good('Ease of use', 6),
          good('Integrations', 4),
          good('Customer support', 3),
          bad('Reporting', 3, { customName: 'Reporting depth' }),
          bad('Mobile app', 2),
          bad('Pricing per seat', 3),
          bad('Offline mode', 1, { archived: true }),
        ],
        sources: [
          reddit('projectmanagement', 4),
          reddit('startups', 2),
          reviews('www.g2.com', 'G2', 4),
          reviews('www.capterra.com', 'Capterra', 3),
          wikipedia('Project_management_software'),
          youtube(1),
        ],
      },
    ],
  },
  {
    name: 'Harbor Financial',
    plan: 'business',
    brands: [
      {
        brand: 'Harbor Bank',
        website: 'https://www.harborbank.com',
        host: 'www.harborbank.com',
        strength: 0.27,
        drift: 0.06,
        sentiment: 63,
        prompts: [
          ['best high yield savings account', 49_500],
          ['online bank with no monthly fees', 8_100],
          ['best bank for small business checking', 12_100],
          ['how to open a joint bank account online', 2_900],
          ['banks with early direct deposit', 6_600],
          ['safest online banks', 3_600],
          ['best cd rates this month', 33_100],
          ['mortgage preapproval online fast', 1_900],
        ],
        competitors: [
          rival('Meridian Bank', 'meridianbank.com', 0.44, -0.03, 61),
          rival('Beacon Credit Union', 'www.beaconcu.org', 0.29, 0.07, 72),
          rival('Tidewater Savings', 'tidewatersavings.com', 0.23, 0.11, 66),
        ],
        themes: [
          good('No fees', 5),
          good('Mobile app', 4),
          good('Interest rates', 4),
          bad('Customer service wait times', 3),
          bad('Branch availability', 2),
        ],
        sources: [
          reviews('www.nerdwallet.com', 'NerdWallet', 5),
          reviews('www.bankrate.com', 'Bankrate', 4),
          reddit('personalfinance', 3),
          wikipedia('Savings_account'),
        ],
      },
    ],
  },
  {
    name: 'Fernwood Naturals',
    plan: 'starter',
    brands: [
      {
        brand: 'Fernwood',
        website: 'fernwood.co',
        host: 'fernwood.co',
        strength: 0.22,
        drift: 0.09,
        sentiment: 74,
        prompts: [
          ['best moisturizer for sensitive skin', 27_100],
          ['fragrance free sunscreen for face', 9_900],
          ['clean skincare brands that work', 4_400],
          ['vitamin c serum for beginners', 8_100],
          ['gentle cleanser for rosacea', 3_600],
        ],
        competitors: [
          rival('Dewdrop Botanics', 'dewdropbotanics.com', 0.36, 0.02, 71),
          rival('Lumiere Skin', 'www.lumiereskin.com', 0.31, -0.04, 67),
          rival('Clearwell', 'clearwell.com', 0.15, 0.1, 69),
        ],
        themes: [good('Gentle formula', 5), bad('Price', 3)],
        sources: [
          reddit('SkincareAddiction', 5),
          reviews('www.byrdie.com', 'Byrdie', 3),
          reviews('www.allure.com', 'Allure', 2),
        ],
      },
    ],
  },
]
