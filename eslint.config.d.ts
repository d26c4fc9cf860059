// Types of eslint.config.js, whose named exports test/tooling.test.ts checks.
import type { Linter } from 'eslint'

export declare const PUBLIC_ENTRY_POINTS: string[]
export declare const CLIENT_FOLDERS: string[]
export declare function publicEntryRule(depth: number): Linter.RuleEntry
declare const config: Linter.Config[]
export default config
