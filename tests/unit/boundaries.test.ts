// The repo's own eslint.config.js refuses imports that cross a package boundary (issue 6): the console
// never reads the API's code, the contract reads neither, the API never reads the console; and (issue 21)
// the API's modules enter each other by their index.ts only.
import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const eslint = new ESLint({ cwd: root })

async function crossings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x\n`, { filePath: path.join(root, filePath) })
  return result!.messages.filter((m) => m.ruleId === 'payshare/boundaries').map((m) => m.message)
}

describe('import boundaries', () => {
  it.each([
    ['app/routes/login.tsx', "import { x } from '#server/config.ts'"],
    ['app/routes/login.tsx', "import { x } from '../../server/src/config.ts'"],
    ['app/.server/env.ts', "import { x } from '../../server/src/db/schema/index.ts'"],
    ['app/components/x.tsx', "export { x } from '#server/errors.ts'"],
    ['app/components/x.tsx', "const { x } = await import('#server/errors.ts')"],
    ['contract/shares.ts', "import { x } from '#app/utils/format.ts'"],
    ['contract/shares.ts', "import { x } from '#app/utils/format.ts'"],
    ['contract/shares.ts', "import { x } from '../server/src/errors.ts'"],
    ['contract/shares.ts', "import { x } from '#server/errors.ts'"],
    ['server/src/app.ts', "import { x } from '#app/root.tsx'"],
    ['server/src/plugins/app/envelope.ts', "import { x } from '../../../../app/utils/format.ts'"],
    ['server/test/helpers.ts', "import { x } from '../../app/.server/api.ts'"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await crossings(file, code)).toEqual([expect.stringMatching(/^(app|contract|server)\/ must not import from (app|server)\//)])
  })

  it.each([
    ['app/routes/login.tsx', "import { x } from '#contract/money.ts'"],
    ['app/routes/login.tsx', "import { x } from '#app/.server/api.ts'"],
    ['app/entry.server.tsx', "import { x } from 'react-dom/server'"],
    ['contract/shares.ts', "import { x } from './money.ts'"],
    // A folder named app inside the API is not the console.
    ['server/src/plugins/external/helmet.ts', "import { x } from '../app/envelope.ts'"],
    ['server/src/app.ts', "import { x } from '#contract/shares.ts'"],
    ['tests/e2e/api.ts', "import { x } from '#server/db/factories.ts'"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await crossings(file, code)).toEqual([])
  })

  // Issue 21: an API module is entered by its index.ts (decision 118).
  it.each([
    ['server/src/modules/share/service.ts', "import { x } from '../orders/repository.ts'"],
    ['server/src/modules/share/service.ts', "import { x } from '../orders/settlement.ts'"],
    ['server/src/modules/share/service.ts', "export { x } from '../orders/rules.ts'"],
    ['server/src/app.ts', "import x from './modules/orders/routes.ts'"],
    ['server/src/db/seed.ts', "import { x } from '#server/modules/ledger/service.ts'"],
  ])('%s: %s reaches into another module', async (file, code) => {
    expect(await crossings(file, code)).toEqual([expect.stringMatching(/^Import the (orders|ledger) module through its index\.ts/)])
  })

  it.each([
    ['server/src/modules/share/service.ts', "import { x } from '../orders/index.ts'"],
    ['server/src/modules/share/service.ts', "import { x } from '../orders'"],
    ['server/src/modules/orders/service.ts', "import { x } from './repository.ts'"],
    ['server/src/app.ts', "import { x } from './modules/orders/index.ts'"],
    ['server/src/modules/orders/orders.test.ts', "import { x } from '../ledger/service.ts'"],
    ['tests/adversarial/sales.ts', "import { x } from '../../server/src/modules/orders/repository.ts'"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await crossings(file, code)).toEqual([])
  })
})
