// Every message of the withdrawals area reads in both languages (DESIGN §5: identical keys in zh-CN and
// en-US): the namespace's two catalogs have the same keys, and every `withdrawals.*` key the API, the
// contract or the console names is in them.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const catalog = (lng: string, ns: string) => JSON.parse(fs.readFileSync(path.join(root, 'app/locales', lng, `${ns}.json`), 'utf8')) as Record<string, unknown>
const keys = (o: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]))

const SOURCES = [
  'contract/withdrawals.ts',
  'server/src/modules/withdrawals',
  'app/routes/_app.dashboard.withdrawal',
  'app/routes/_app.dashboard.withdrawal.preview',
  'app/routes/_app.system.withdrawal-manage',
  'app/components/withdrawals',
]
function sourceText(p: string): string {
  const full = path.join(root, p)
  if (fs.statSync(full).isFile()) return fs.readFileSync(full, 'utf8')
  return fs
    .readdirSync(full)
    .filter((f) => /\.tsx?$/.test(f) && !f.includes('.test.'))
    .map((f) => fs.readFileSync(path.join(full, f), 'utf8'))
    .join('\n')
}

describe('withdrawals catalogs', () => {
  const zh = keys(catalog('zh-CN', 'withdrawals'))
  const en = keys(catalog('en-US', 'withdrawals'))

  it('zh-CN and en-US have the same keys, none empty', () => {
    expect(zh.sort()).toEqual(en.sort())
    for (const lng of ['zh-CN', 'en-US']) {
      const flat = JSON.stringify(catalog(lng, 'withdrawals'))
      expect(flat, lng).not.toMatch(/:""/)
    }
  })

  it('every withdrawals.* key named in the code is in both', () => {
    const named = new Set<string>()
    for (const p of SOURCES) {
      // Literal keys, and template keys with one ${…} part expanded over the catalog.
      for (const m of sourceText(p).matchAll(/['"`]withdrawals\.([A-Za-z.]+(?:\$\{[^}]+\}[A-Za-z.]*)?)['"`]/g)) named.add(m[1]!)
    }
    expect(named.size).toBeGreaterThan(40)
    for (const key of named) {
      if (key.includes('${')) {
        const [head] = key.split('${')
        expect(en.some((k) => k.startsWith(head!)), key).toBe(true)
      } else {
        expect(en, key).toContain(key)
      }
    }
  })

  it('the menu names both pages in both languages', () => {
    for (const lng of ['zh-CN', 'en-US']) expect(keys(catalog(lng, 'menu'))).toEqual(expect.arrayContaining(['withdrawal', 'withdrawalManage']))
  })
})
