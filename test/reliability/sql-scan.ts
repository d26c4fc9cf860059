/**
 * Static checks that no value is ever spliced into SQL.
 *
 * - `scanSqlFiles`: every file under sql/ uses only `$snake_case` parameters and has no template
 *   or printf markers (`${`, `{{`, `%s`, `?`) outside string literals and comments.
 * - `scanSqlCallSites`: with the TypeScript type checker, every call of a DuckDB method that takes
 *   SQL text (`run`, `prepare`, `runAndReadAll`, ... on DuckDBConnection and friends) gets a string
 *   literal, `sqlText(<literal | identifier | property>)` (or `sqlScript`, several file ids), or a local whose every value is one of
 *   those. A template literal with substitutions or a `+` concatenation is a violation.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

export interface SqlFileReport {
  file: string
  params: string[]
  problems: string[]
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* walk(p)
    else yield p
  }
}

/** SQL text with comments and string literals blanked out (quoted identifiers kept). */
export function stripSql(text: string): string {
  return text
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
}

export function checkSqlText(text: string): { params: string[]; problems: string[] } {
  const code = stripSql(text)
  const problems: string[] = []
  if (code.includes('${')) problems.push('template placeholder ${')
  if (code.includes('{{')) problems.push('template placeholder {{')
  if (/%[sdq(]/.test(code)) problems.push('printf placeholder')
  if (/\?/.test(code)) problems.push('positional ? placeholder')
  const params = new Set<string>()
  for (const m of code.matchAll(/\$([^\s,)(;:]*)/g)) {
    const name = m[1]!
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) problems.push(`parameter $${name} is not $snake_case`)
    else params.add(name)
  }
  return { params: [...params].sort(), problems }
}

export function scanSqlFiles(root: string): SqlFileReport[] {
  const out: SqlFileReport[] = []
  for (const file of walk(root)) {
    const rel = relative(root, file)
    if (!rel.endsWith('.sql')) {
      out.push({ file: rel, params: [], problems: ['not a .sql file'] })
      continue
    }
    out.push({ file: rel, ...checkSqlText(readFileSync(file, 'utf8')) })
  }
  return out
}

const DUCKDB_TYPES = new Set([
  'DuckDBConnection',
  'DuckDBPreparedStatement',
  'DuckDBInstance',
  'DuckDBPendingResult',
])
const SQL_METHODS = new Set([
  'run',
  'runAndRead',
  'runAndReadAll',
  'runAndReadUntil',
  'stream',
  'streamAndRead',
  'streamAndReadAll',
  'streamAndReadUntil',
  'start',
  'startStream',
  'prepare',
  'extractStatements',
])

export interface CallSite {
  where: string
  method: string
  arg: string
  ok: boolean
  why?: string
}

function isDuckDbType(t: ts.Type): boolean {
  if (t.isUnion()) return t.types.some(isDuckDbType)
  const name = (t.aliasSymbol ?? t.getSymbol())?.getName()
  return name !== undefined && DUCKDB_TYPES.has(name)
}

/** Scans the given TypeScript files (plus `virtual` files given by content) for SQL call sites. */
export function scanSqlCallSites(files: string[], virtual: Record<string, string> = {}): CallSite[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
  }
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, lang, ...rest) =>
    virtual[name] !== undefined
      ? ts.createSourceFile(name, virtual[name]!, lang)
      : getSourceFile(name, lang, ...rest)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => virtual[name] !== undefined || fileExists(name)
  const readFile = host.readFile.bind(host)
  host.readFile = (name) => virtual[name] ?? readFile(name)
  const roots = [...files, ...Object.keys(virtual)]
  const program = ts.createProgram(roots, options, host)
  const checker = program.getTypeChecker()
  const sites: CallSite[] = []

  for (const sf of program.getSourceFiles()) {
    if (!roots.includes(sf.fileName)) continue
    const where = (n: ts.Node) =>
      `${sf.fileName}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`

    const isConstDecl = (d: ts.Declaration | undefined): boolean =>
      d !== undefined &&
      ts.isVariableDeclaration(d) &&
      (ts.getCombinedNodeFlags(d) & ts.NodeFlags.Const) !== 0
    const closedLoopVariable = (e: ts.Expression): boolean => {
      if (!ts.isIdentifier(e)) return false
      const decl = checker.getSymbolAtLocation(e)?.valueDeclaration
      if (decl === undefined || !ts.isVariableDeclaration(decl)) return false
      const loop = decl.parent.parent
      if (!ts.isForOfStatement(loop) || !ts.isIdentifier(loop.expression)) return false
      let list = checker.getSymbolAtLocation(loop.expression)
      if (list !== undefined && list.flags & ts.SymbolFlags.Alias) list = checker.getAliasedSymbol(list)
      return isConstDecl(list?.valueDeclaration)
    }

    /** Why `e` is not a safe SQL source, or undefined when it is. */
    const unsafe = (e: ts.Expression, depth = 0): string | undefined => {
      if (depth > 5) return 'too indirect to prove constant'
      if (ts.isParenthesizedExpression(e)) return unsafe(e.expression, depth)
      if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return undefined
      if (ts.isTemplateExpression(e)) return 'template literal with substitutions'
      if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken)
        return 'string concatenation'
      // sqlScript(ids) joins the texts of files by id, exactly as sqlText reads one: the same rule.
      if (
        ts.isCallExpression(e) &&
        ts.isIdentifier(e.expression) &&
        (e.expression.text === 'sqlText' || e.expression.text === 'sqlScript')
      ) {
        const a = e.arguments[0]
        if (a === undefined || e.arguments.length !== 1) return 'sqlText takes one id'
        if (ts.isBinaryExpression(a)) return 'sqlText id built from strings'
        if (ts.isTemplateExpression(a)) {
          // Allowed: every substitution is the variable of a `for (const x of LIST)` over a const
          // list (a closed set of file ids, e.g. FLAT_TABLES), never a value from outside.
          for (const span of a.templateSpans)
            if (!closedLoopVariable(span.expression)) return 'sqlText id built from strings'
        }
        return undefined
      }
      if (ts.isIdentifier(e)) {
        const sym = checker.getSymbolAtLocation(e)
        const decl = sym?.valueDeclaration
        if (decl === undefined) return 'unresolved identifier'
        if (ts.isVariableDeclaration(decl)) {
          const constant = (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0
          if (!constant || decl.initializer === undefined) return 'a non-const variable'
          return unsafe(decl.initializer, depth + 1)
        }
        if (ts.isParameter(decl)) {
          // A parameter of a local function bound to a const: every call must pass a safe value.
          const fn = decl.parent
          const idx = fn.parameters.indexOf(decl)
          const holder = fn.parent
          if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || !ts.isVariableDeclaration(holder))
            return 'a parameter of a function that is not a local const'
          const fnSym = checker.getSymbolAtLocation(holder.name)
          const problems: string[] = []
          let calls = 0
          const visit = (n: ts.Node): void => {
            if (
              ts.isCallExpression(n) &&
              ts.isIdentifier(n.expression) &&
              checker.getSymbolAtLocation(n.expression) === fnSym
            ) {
              calls++
              const a = n.arguments[idx]
              const why = a === undefined ? 'missing argument' : unsafe(a, depth + 1)
              if (why) problems.push(`${where(n)}: ${why}`)
            }
            ts.forEachChild(n, visit)
          }
          visit(sf)
          if (calls === 0) return 'a parameter of a function never called here'
          return problems.length ? problems.join('; ') : undefined
        }
        return 'an identifier that is not a const or a local parameter'
      }
      return `an expression of kind ${ts.SyntaxKind[e.kind]}`
    }

    const visit = (n: ts.Node): void => {
      if (
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        SQL_METHODS.has(n.expression.name.text)
      ) {
        const receiver = checker.getTypeAtLocation(n.expression.expression)
        if (isDuckDbType(receiver) && n.arguments.length > 0) {
          const arg = n.arguments[0]!
          const why = unsafe(arg)
          sites.push({
            where: where(n),
            method: n.expression.name.text,
            arg: arg.getText(sf).slice(0, 80),
            ok: why === undefined,
            ...(why && { why }),
          })
        }
      }
      ts.forEachChild(n, visit)
    }
    visit(sf)
  }
  return sites
}

/** Every .ts file under a folder. */
export function tsFiles(dir: string): string[] {
  return [...walk(dir)].filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
}
