import path from 'node:path'
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const ROOT = import.meta.dirname
/** The package's import aliases (package.json "imports", and Vite's `~`), as folders of the repo. */
const ALIASES = { '#app/': 'app/', '#contract/': 'contract/', '#server/': 'server/src/' }
/** Which top-level folders each one may not import from (issue 6: the console never reads server/src). */
const FORBIDDEN = { app: ['server'], contract: ['app', 'server'], server: ['app'] }

/** The repo-relative path an import lands on, or null for a package. */
function targetPath(specifier, fromFile) {
  let target = null
  const alias = Object.keys(ALIASES).find((a) => specifier.startsWith(a))
  if (alias) target = path.join(ROOT, ALIASES[alias], specifier.slice(alias.length))
  else if (specifier.startsWith('.')) target = path.resolve(path.dirname(fromFile), specifier)
  if (!target) return null
  const rel = path.relative(ROOT, target)
  return rel.startsWith('..') ? null : rel
}

const MODULES = path.join('server', 'src', 'modules')
/** `[module, file inside it]` of a repo-relative path under server/src/modules, else null. */
function moduleFile(rel) {
  const inside = path.relative(MODULES, rel)
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null
  const [module, ...rest] = inside.split(path.sep)
  return [module, rest.join('/')]
}
/** The API's product code, which enters a module by its index.ts; a test may reach in to set up what it proves. */
const isApiProduct = (rel) => rel.startsWith(path.join('server', 'src') + path.sep) && !/\.test\.tsx?$/.test(rel)

/**
 * Paths are resolved rather than matched as text, so `../app/envelope.ts` inside server/src/plugins/
 * (a folder named app) passes while `../../../app/root.tsx` does not.
 */
const boundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      crossed: '{{from}}/ must not import from {{to}}/ ("{{specifier}}").',
      inner: 'Import the {{module}} module through its index.ts, not its inner file {{file}} ("{{specifier}}"); decision 118.',
    },
  },
  create(context) {
    const fromFile = path.resolve(context.cwd, context.filename)
    const fromRel = path.relative(ROOT, fromFile)
    const from = fromRel.split(path.sep)[0]
    const forbidden = FORBIDDEN[from] ?? []
    const fromModule = moduleFile(fromRel)?.[0]
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return
      const rel = targetPath(source.value, fromFile)
      if (!rel) return
      const to = rel.split(path.sep)[0]
      if (forbidden.includes(to)) context.report({ node: source, messageId: 'crossed', data: { from, to, specifier: source.value } })
      // Issue 21: each API module is entered by its index.ts; its other files are its own business.
      const [module, file] = moduleFile(rel) ?? []
      if (module && module !== fromModule && file && file !== 'index.ts' && isApiProduct(fromRel))
        context.report({ node: source, messageId: 'inner', data: { module, file, specifier: source.value } })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    }
  },
}

export default tseslint.config(
  { ignores: ['build/**', 'server/dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**', 'bench/bare-remix/build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, payshare: { rules: { boundaries } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'payshare/boundaries': 'error',
    },
  },
  {
    // Playwright fixtures call `use()` and take `{}` — not React hooks, not a mistake.
    files: ['tests/e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
)
