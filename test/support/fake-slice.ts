/**
 * The clock taken out of a test of work done in slices of time (src/foundation/slice.ts): with
 * `vi.mock('../../src/foundation/slice.js', fakeSlices)`, every TimeSlice's slice is spent when
 * `slices.spent` says so, and `slices.turns` counts the turns of the loop it let happen.
 */
import type * as SliceModule from '../../src/foundation/slice.js'

export const slices = { spent: false, turns: 0 }

/** vi.mock's factory for src/foundation/slice.js: the module with its TimeSlice replaced. */
export async function fakeSlices(original: () => Promise<typeof SliceModule>): Promise<typeof SliceModule> {
  const real = await original()
  class TimeSlice extends real.TimeSlice {
    override get spent(): boolean {
      return slices.spent
    }
    override async next(): Promise<void> {
      slices.turns++
      await super.next()
    }
  }
  return { ...real, TimeSlice }
}
