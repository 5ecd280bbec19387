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

/** The top-level folder an import lands in, or null for a package. */
function targetArea(specifier, fromFile) {
  let target = null
  const alias = Object.keys(ALIASES).find((a) => specifier.startsWith(a))
  if (alias) target = path.join(ROOT, ALIASES[alias], specifier.slice(alias.length))
  else if (specifier.startsWith('.')) target = path.resolve(path.dirname(fromFile), specifier)
  if (!target) return null
  const rel = path.relative(ROOT, target)
  return rel.startsWith('..') ? null : rel.split(path.sep)[0]
}

/**
 * Paths are resolved rather than matched as text, so `../app/envelope.ts` inside server/src/plugins/
 * (a folder named app) passes while `../../../app/root.tsx` does not.
 */
const boundaries = {
  meta: { type: 'problem', schema: [], messages: { crossed: '{{from}}/ must not import from {{to}}/ ("{{specifier}}").' } },
  create(context) {
    const from = path.relative(ROOT, path.resolve(context.cwd, context.filename)).split(path.sep)[0]
    const forbidden = FORBIDDEN[from]
    if (!forbidden) return {}
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return
      const to = targetArea(source.value, path.resolve(context.cwd, context.filename))
      if (to && forbidden.includes(to)) context.report({ node: source, messageId: 'crossed', data: { from, to, specifier: source.value } })
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
