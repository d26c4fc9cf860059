// Types of eslint.config.js, whose named exports test/repo/tooling.test.ts checks.
import type { Linter } from 'eslint'

export declare const PUBLIC_ENTRY_POINTS: string[]
export declare const CLIENT_FOLDERS: string[]
export declare function publicEntryRule(depth: number): Linter.RuleEntry
export interface Layer {
  name: string
  modules: string[]
  below: string[]
}
export declare const LAYERS: Layer[]
export declare function layerRule(layer: Layer, depth: number): Linter.RuleEntry
export declare function layerConfigs(): Linter.Config[]
declare const config: Linter.Config[]
export default config
