import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import * as orders from '../orders.ts'
import * as shares from '../shares.ts'
import * as orderValues from './orders.ts'
import * as shareValues from './shares.ts'

describe('contract/values', () => {
  // Decision 099: a component importing a badge colour must not bring the schemas chunk (zod) along.
  it('imports no zod and no module that does', () => {
    const dir = path.dirname(new URL(import.meta.url).pathname)
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const imports = [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/^import\s+(?!type\b)[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1])
      expect(imports.filter((i) => !i.startsWith('./')), file).toEqual([])
    }
  })

  it('is what contract/orders.ts and contract/shares.ts export, the same objects', () => {
    for (const [name, value] of Object.entries(orderValues)) expect(orders[name as keyof typeof orders], name).toBe(value)
    for (const [name, value] of Object.entries(shareValues)) expect(shares[name as keyof typeof shares], name).toBe(value)
  })
})
