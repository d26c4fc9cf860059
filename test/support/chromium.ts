/**
 * Debian's Chromium for the browser suites, driven by playwright-core (no browser is downloaded):
 * where it is, whether it is there, and one launch with the flags this machine needs (background
 * networking off: the sandbox has no network). Without it a suite is skipped loudly, except under
 * CI=true where that is a failure.
 */
import { accessSync, constants } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** The browser binary: CHROMIUM_PATH, default /usr/bin/chromium. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

function present(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Whether the browser is there. */
export const CHROMIUM_PRESENT = present()

/** Warns (outside CI) that `suite` is skipped for want of a browser; the caller skips its tests. */
export function warnWithoutChromium(suite: string, what: string): void {
  if (!CHROMIUM_PRESENT && process.env.CI !== 'true')
    console.warn(`${suite}: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH); SKIPPING ${what}`)
}

/** Launches the browser; throws (under CI=true the suite's failure) when it is missing. */
export async function launchChromium(what: string): Promise<Browser> {
  if (!CHROMIUM_PRESENT) throw new Error(`CI=true and no Chromium at ${CHROMIUM}: ${what}`)
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}
