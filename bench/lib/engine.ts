/**
 * Loads the engine under test from the build (dist/src/index.js) at run time, so the bench builds and
 * its peers run even before the engine exists. Returns null when it is not there.
 */
import type { Engine, OpenEngineOptions } from '../../src/types.js'

export interface EngineModule {
  openEngine(options?: OpenEngineOptions): Promise<Engine>
}

export async function loadEngineModule(): Promise<{ module: EngineModule | null; error?: string }> {
  const specifier = '../../src/index.js'
  try {
    const m = (await import(specifier)) as Partial<EngineModule>
    if (typeof m.openEngine !== 'function')
      return { module: null, error: 'src/index.ts exports no openEngine' }
    return { module: m as EngineModule }
  } catch (e) {
    return { module: null, error: e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e) }
  }
}
